import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPlatformServer } from '../platform/index.ts';
import type { LogRecord } from './core/logger.ts';
import { startRuntime } from './start-runtime.ts';

const dir = mkdtempSync(join(tmpdir(), 'flow-start-runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const definition = `env:
  ECHO_TOKEN: {}
  ECHO_KEY: {}
  BOUND: {}
  DECLARED: {secret: true}
  FROM_RESOURCE: {}
flows:
  call:
    steps:
      - log:
          message: 'env("ECHO_TOKEN") + " " + env("ECHO_KEY") + " " + env("BOUND") + " " + env("DECLARED") + " " + env("FROM_RESOURCE")'
`;

describe('startRuntime, the one start-up of a runtime', () => {
  it('masks the platform token and API key headers, the given secret values and declared secrets alike, and folds env resources beneath the variables', async () => {
    const token = 'platform-token-0123456789';
    const server = await startPlatformServer({ host: '127.0.0.1', port: 0, dataDir: dir, token });
    try {
      server.resources.write('env', 'base.env', Buffer.from('FROM_RESOURCE=from-the-resource\nBOUND=loses-to-the-variable\n'), 'test');
      const records: LogRecord[] = [];
      const started = await startRuntime({
        definitions: [{ file: 'call.yaml', text: definition }],
        variables: { ECHO_TOKEN: token, ECHO_KEY: 'api-key-value-42', BOUND: 'bound-secret-value', DECLARED: 'declared-secret-value' },
        envResources: ['base.env'],
        platform: { url: server.url, token, headers: { 'X-Api-Key': 'api-key-value-42' } },
        identity: { deploymentId: 'start-test', instanceId: 'one' },
        secretValues: ['bound-secret-value'],
        logSinks: [(record) => records.push(record)],
      });
      try {
        expect((await started.runtime.run('call', {})).outcome).toBe('completed');
      } finally {
        await started.stop();
      }
      const line = records.find((r) => r.msg.includes('from-the-resource'));
      expect(line?.msg).toBe('[redacted] [redacted] [redacted] [redacted] from-the-resource');
      const all = JSON.stringify(records);
      for (const secret of [token, 'api-key-value-42', 'bound-secret-value', 'declared-secret-value']) expect(all).not.toContain(secret);
    } finally {
      await server.close();
    }
  });

  it('runs without a platform when none is given, and closes nothing it did not open', async () => {
    const started = await startRuntime({
      definitions: [{ file: 'a.yaml', text: 'flows:\n  echo:\n    steps:\n      - set: {body: \'"ok"\'}\n' }],
      variables: {},
      identity: { deploymentId: 'local', instanceId: 'test' },
    });
    expect((await started.runtime.run('echo', {})).message.body).toBe('ok');
    await started.stop();
  });

  it('takes FLOW_TRACE_SATURATED_RATE from the variables over the caller\'s default, lets traceEveryRun override it, and refuses a bad one before connecting', async () => {
    const flows = [{ file: 'call.yaml', text: 'flows:\n  call:\n    steps:\n      - set: {body: "1"}\n' }];
    const rateOf = async (variables: Record<string, string>, traceEveryRun?: boolean, saturated?: { rate: number; burst: number }) => {
      const started = await startRuntime({ definitions: flows, variables, identity: { deploymentId: 'rate', instanceId: 'one' }, traceEveryRun, saturated });
      await started.stop(100);
      return started.runtime.traces.admission.saturatedRate;
    };
    expect(await rateOf({})).toBe(1000);
    expect(await rateOf({ FLOW_TRACE_SATURATED_RATE: '50' })).toBe(50);
    expect(await rateOf({ FLOW_TRACE_SATURATED_RATE: 'all' })).toBe(Infinity);
    expect(await rateOf({ FLOW_TRACE_SATURATED_RATE: '0' }, true)).toBe(Infinity);
    // A caller's default (the studio's) applies only where the variable is unset.
    expect(await rateOf({}, false, { rate: 250, burst: 1000 })).toBe(250);
    expect(await rateOf({ FLOW_TRACE_SATURATED_RATE: '50' }, false, { rate: 250, burst: 1000 })).toBe(50);
    await expect(startRuntime({ definitions: flows, variables: { FLOW_TRACE_SATURATED_RATE: 'many' }, identity: { deploymentId: 'rate', instanceId: 'one' } })).rejects.toThrow(
      'FLOW_TRACE_SATURATED_RATE must be a whole number of runs a second (traced while the request thread is saturated) or "all", got "many"',
    );
  });

  it('takes FLOW_TRACE_SATURATED_BUDGET from the variables, and refuses a bad one before connecting', async () => {
    const flows = [{ file: 'call.yaml', text: 'flows:\n  call:\n    steps:\n      - set: {body: "1"}\n' }];
    const budgetOf = async (variables: Record<string, string>) => {
      const started = await startRuntime({ definitions: flows, variables, identity: { deploymentId: 'budget', instanceId: 'one' }, saturated: { rate: 250, burst: 1000 } });
      await started.stop(100);
      return started.runtime.traces.admission.budget;
    };
    expect(await budgetOf({})).toBe(0.01);
    expect(await budgetOf({ FLOW_TRACE_SATURATED_BUDGET: '0.25%' })).toBe(0.0025);
    await expect(startRuntime({ definitions: flows, variables: { FLOW_TRACE_SATURATED_BUDGET: 'half' }, identity: { deploymentId: 'budget', instanceId: 'one' } })).rejects.toThrow(
      'FLOW_TRACE_SATURATED_BUDGET must be a percent of the CPU from 0 to 100 (tracing\'s share while the request thread is saturated), e.g. 1 or 0.5%, got "half"',
    );
  });
});
