import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformEvent, type PlatformServer } from '../../../platform/index.ts';
import { runtimeOn, type RuntimeOnPlatform } from '../../services/testing/runtime-on-platform.ts';
import { Message } from '../message.ts';
import type { TraceRecord } from '../trace.ts';

// Every step appends its label to vars.trail, so a run says exactly which steps it went through.
const mark = (label: string) => `{set: {vars: {trail: 'vars.trail + ["${label}"]'}}}`;

const yaml = `flows:
  price:
    steps:
      - ${mark('first')}
      - switch:
          cases:
            - when: 'body.kind == "bulk"'
              steps:
                - ${mark('bulk-1')}
                - ${mark('bulk-2')}
                - switch:
                    cases:
                      - when: 'body.size > 10'
                        steps:
                          - ${mark('huge-1')}
                          - ${mark('huge-2')}
                - ${mark('bulk-3')}
            - when: 'body.kind == "void"'
              steps:
                - ${mark('void-1')}
                - filter: {condition: 'false'}
                - ${mark('void-3')}
          default:
            - ${mark('retail-1')}
            - ${mark('retail-2')}
      - lock:
          name: '"ledger"'
          ttl: 5s
          steps:
            - ${mark('locked-1')}
            - kv-put: {key: '"ledger/last"', value: 'vars.trail'}
            - ${mark('locked-3')}
      - ${mark('last')}
      # fails for a boom: body.missing is no field
      - set: {vars: {checked: 'body.kind == "boom" ? body.missing : true'}}
      - ${mark('after-check')}
    onError:
      - ${mark('recover-1')}
      - ${mark('recover-2')}
`;

let dataDir: string;
let platform: PlatformServer;
let rt: RuntimeOnPlatform;
const events: TraceRecord[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'run-from-step-'));
  platform = await startPlatformServer({ dataDir });
  rt = await runtimeOn(platform, yaml);
  rt.runtime.traces.add({ emit: (e) => events.push(e) });
});
afterAll(async () => {
  await rt.stop();
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const from = (step: string, body: unknown, trail: string[] = []) => rt.runtime.runFromStep('price', step, new Message(body, { trail }));

describe('a run from a step of the current definition', () => {
  it('from a step inside a switch case runs the rest of that case, then the rest of the flow, without asking the case condition again', async () => {
    // The body would choose the default branch; the run starts inside the bulk case all the same.
    const r = await from('flows.price.steps[1].switch.cases[0].steps[1]', { kind: 'retail', size: 1 }, ['first', 'bulk-1']);
    expect(r.outcome).toBe('completed');
    expect(r.message.vars.trail).toEqual(['first', 'bulk-1', 'bulk-2', 'bulk-3', 'locked-1', 'locked-3', 'last', 'after-check']);
  });

  it('from a step of a switch default runs the rest of the default, then the rest of the flow', async () => {
    const r = await from('flows.price.steps[1].switch.default[1]', { kind: 'retail' });
    expect(r.message.vars.trail).toEqual(['retail-2', 'locked-1', 'locked-3', 'last', 'after-check']);
  });

  it('from a step of a switch nested in a switch case climbs out through both', async () => {
    const r = await from('flows.price.steps[1].switch.cases[0].steps[2].switch.cases[0].steps[1]', { kind: 'bulk', size: 1 });
    expect(r.message.vars.trail).toEqual(['huge-2', 'bulk-3', 'locked-1', 'locked-3', 'last', 'after-check']);
  });

  it('a step that drops inside the branch drops the run, as it would in a whole run', async () => {
    const r = await from('flows.price.steps[1].switch.cases[1].steps[1]', { kind: 'void' });
    expect(r.outcome).toBe('dropped');
    expect(r.message.vars.trail).toEqual([]);
  });

  it('from a step inside a lock takes the lease again for the rest of its steps, then releases it', async () => {
    const seen: PlatformEvent[] = [];
    const stop = platform.events.subscribe((e) => (e.type === 'lease.grant' || e.type === 'lease.release' || e.type === 'kv.put') && seen.push(e));
    try {
      const r = await from('flows.price.steps[2].lock.steps[1]', { kind: 'retail' }, ['earlier']);
      expect(r.message.vars.trail).toEqual(['earlier', 'locked-3', 'last', 'after-check']);
      expect(seen.map((e) => (e.type === 'kv.put' ? `${e.type} ${e.key}` : `${e.type} ${(e as { name: string }).name}`))).toEqual([
        'lease.grant ledger',
        'kv.put ledger/last',
        'lease.release ledger',
      ]);
    } finally {
      stop();
    }
  });

  it('a failure after a nested start goes through the error chain, as in a whole run', async () => {
    const r = await from('flows.price.steps[1].switch.default[0]', { kind: 'boom' });
    expect(r.outcome).toBe('failed');
    expect(r.message.vars.trail).toEqual(['retail-1', 'retail-2', 'locked-1', 'locked-3', 'last', 'recover-1', 'recover-2']);
  });

  it('from a step of the error chain runs the rest of that chain and stays failed with the failure vars.error names', async () => {
    const error = { message: 'rejected', step: 'flows.price.steps[4]', status: 422 };
    const r = await rt.runtime.runFromStep('price', 'flows.price.onError[1]', new Message({ kind: 'boom' }, { trail: ['recover-1'], error }));
    expect(r.outcome).toBe('failed');
    expect(r.error).toEqual(error);
    expect(r.message.vars.trail).toEqual(['recover-1', 'recover-2']);
  });

  it('traces the run with the enclosing switch as a step around the steps it ran', async () => {
    events.length = 0;
    await from('flows.price.steps[1].switch.cases[0].steps[3]', { kind: 'bulk' });
    const steps = events.filter((e) => e.kind === 'step').map((e) => (e as { step: string }).step);
    expect(steps.slice(0, 2)).toEqual(['flows.price.steps[1].switch.cases[0].steps[3]', 'flows.price.steps[1]']);
    expect(steps).toContain('flows.price.steps[5]');
    expect(events.filter((e) => e.kind === 'run')).toHaveLength(1);
  });

  it('refuses a step the current definition does not have, naming it', async () => {
    await expect(from('flows.price.steps[1].switch.cases[0].steps[9]', {})).rejects.toThrow(
      'flows.price.steps[1].switch.cases[0].steps[9] is not a step of flow "price" in the current definition; was it moved or removed?',
    );
    await expect(from('flows.other.steps[0]', {})).rejects.toThrow('is not a step of flow "price"');
  });
});
