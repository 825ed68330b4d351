import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const temp = mkdtempSync(join(tmpdir(), 'flow-run-failed-runs-'));
const children: ChildProcess[] = [];
const SECRET = 'sk-live-5a4b3c2d1e0f9a8b';

/** `flow-studio run` of a folder on its own embedded platform; its output (stdout and stderr) grows as it runs. */
function run(app: string): { child: ChildProcess; output(): string; closed: Promise<void> } {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE' || k === 'LOG_LEVEL') delete env[k];
  const child = spawn(process.execPath, ['bin/flow-studio.js', 'run', app, '--data-dir', join(temp, 'platform')], {
    cwd: process.cwd(),
    env: { ...env, API_KEY: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  // 'close', not 'exit': only then have both pipes been read to their end. warn lines go to
  // stderr and info lines to stdout, so a line on one may arrive after a later line on the other.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, output: () => output, closed };
}

/** Resolves once the output satisfies `ready`; rejects with it if the command exits first. */
function outputWhere(p: { child: ChildProcess; output(): string }, ready: (out: string) => boolean, what: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const check = (): void => {
      if (ready(p.output())) resolvePromise(p.output());
    };
    p.child.stdout!.on('data', check);
    p.child.stderr!.on('data', check);
    p.child.once('exit', (code) => reject(new Error(`exited ${code} before ${what}:\n${p.output()}`)));
    check();
  });
}

const records = (out: string): Array<Record<string, unknown>> =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(temp, { recursive: true, force: true });
});

describe('flow-studio run, runs that fail', () => {
  it('logs the failure as a warn naming the step, block, masked error and redelivery, once, then one summary of the flood', async () => {
    const app = join(temp, 'app');
    mkdirSync(app, { recursive: true });
    // A feeder floods the queue; each job fails at a template whose name holds a secret, and a
    // failed job comes back after 100ms, so the failures outnumber the jobs.
    writeFileSync(
      join(app, 'app.yaml'),
      `env:
  API_KEY: {required: true, secret: true}
flows:
  feed:
    source: {type: schedule, interval: 20ms}
    steps:
      - set: {body: '{"due": vars.scheduledAt}'}
      - queue-publish: {subject: report-jobs}
  work:
    workers: 4
    source: {type: queue, subject: report-jobs, nackDelay: 100ms}
    steps:
      - log: {message: '"working on a job"'}
      - template: {name: 'reports/\${API_KEY}.txt'}
  tick:
    source: {type: schedule, interval: 50ms}
    steps:
      - template: {name: missing.txt}
`,
    );
    const worker = run(app);
    const runs = (out: string): number => records(out).filter((r) => r.msg === 'working on a job').length;
    const workWarnings = (out: string): Array<Record<string, unknown>> => records(out).filter((r) => r.flow === 'work' && r.level === 'warn');
    const during = await outputWhere(worker, (out) => runs(out) >= 60, '60 runs of the work flow');
    // The same step and error every time: one line in full while the flood goes on, the rest held back.
    expect(workWarnings(during)).toHaveLength(1);
    worker.child.kill('SIGTERM');
    await worker.closed;
    const all = worker.output();
    expect(all).toContain('"msg":"runtime stopped"');

    expect(all).not.toContain(SECRET);
    const failed = workWarnings(all);
    const error = 'template resource "reports/[redacted].txt" does not exist; add it to the integration\'s resources';
    expect(failed[0]).toMatchObject({
      msg: `run failed at flows.work.steps[1] (template) (delivery 1): ${error}; the message was nacked and is redelivered in 0.1s`,
      source: 'queue',
      subject: 'report-jobs',
      step: 'flows.work.steps[1]',
      block: 'template',
      error,
      deliveryCount: 1,
      next: 'redelivered',
      retryInSeconds: 0.1,
    });
    // Stopping says what was held back: the runs seen before the stop (less the few still
    // running then) less the one logged in full, all at the one step.
    expect(failed).toHaveLength(2);
    expect(failed[1]).toMatchObject({ failures: [{ step: 'flows.work.steps[1]', block: 'template', error }] });
    expect(failed[1].suppressed).toBeGreaterThanOrEqual(runs(during) - 1 - 4);
    expect(failed[1].suppressed).toBeLessThanOrEqual(runs(all) - 1);

    const lines = records(all);
    const ticks = lines.filter((r) => r.flow === 'tick' && r.level === 'warn');
    expect(ticks[0]).toMatchObject({
      source: 'schedule',
      schedule: 'every 50 ms',
      step: 'flows.tick.steps[0]',
      block: 'template',
      next: 'dropped',
      msg: 'run failed at flows.tick.steps[0] (template): template resource "missing.txt" does not exist; add it to the integration\'s resources; the tick is dropped; the next one runs as usual',
    });
    expect(ticks.length).toBeLessThanOrEqual(2);
  }, 90_000);

  it('logs an HTTP run that failed once with the status its caller got, while the caller gets the error as before', async () => {
    const app = join(temp, 'web');
    mkdirSync(app, { recursive: true });
    writeFileSync(
      join(app, 'app.yaml'),
      `env:
  API_KEY: {required: true, secret: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  report:
    source: {type: http, path: /report, methods: [GET]}
    steps:
      - template: {name: 'reports/\${API_KEY}.txt'}
  busy:
    source: {type: http, path: /busy, methods: [GET]}
    steps:
      - template: {name: missing.txt}
    onError:
      - set: {body: '{"busy": true}', vars: {httpStatus: '503'}}
`,
    );
    const web = run(app);
    const ready = await outputWhere(web, (out) => out.includes('"msg":"connector web ready"'), 'the http connector');
    const url = records(ready).find((r) => r.msg === 'connector web ready')!.url as string;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/report`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'template resource "reports/[redacted].txt" does not exist; add it to the integration\'s resources' });
    }
    const busy = await fetch(`${url}/busy`);
    expect(busy.status).toBe(503);
    await busy.text();
    const out = await outputWhere(web, (o) => records(o).some((r) => r.flow === 'busy' && r.level === 'warn'), "the busy flow's warning");
    expect(out).not.toContain(SECRET);
    const report = records(out).filter((r) => r.flow === 'report' && r.level === 'warn');
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({
      source: 'http',
      route: 'GET /report',
      step: 'flows.report.steps[0]',
      block: 'template',
      error: 'template resource "reports/[redacted].txt" does not exist; add it to the integration\'s resources',
      next: 'answered',
      status: 500,
    });
    expect(records(out).find((r) => r.flow === 'busy' && r.level === 'warn')).toMatchObject({
      msg: 'run failed at flows.busy.steps[0] (template): template resource "missing.txt" does not exist; add it to the integration\'s resources; the caller was answered 503',
      status: 503,
    });
    // Stopped within the minute, the four failures not logged one by one are still said.
    web.child.kill('SIGINT');
    await web.closed;
    const stopped = web.output();
    expect(records(stopped).some((r) => r.msg === 'runtime stopped')).toBe(true);
    expect(records(stopped).filter((r) => r.flow === 'report' && r.level === 'warn' && r.suppressed !== undefined)).toMatchObject([
      { msg: expect.stringMatching(/^4 more failed runs were not logged one by one in the last \d+s$/), suppressed: 4, failures: [{ step: 'flows.report.steps[0]', block: 'template', count: 4 }] },
    ]);
  }, 90_000);
});
