import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock.ts';
import type { DebugOutput, PausedRunView } from '../../../shared/debugger-types.ts';
import { createLogger, type LogRecord } from '../core/logger.ts';
import { Runtime } from '../core/runtime.ts';
import type { TraceSpan } from '../core/trace.ts';
import { registry } from '../registry.ts';
import { DebugSession } from './debug-session.ts';
import { DefinitionSteps, registryChainShapes } from './definition-steps.ts';

const yaml = (timeout = '5s', workers = 4) => `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    workers: ${workers}
    source: {type: http, path: /greet, timeout: ${timeout}}
    steps:
      - set: {vars: {greeting: '"hello " + body.customer'}}
      - name: shape
        switch:
          cases:
            - when: body.customer == "bob"
              steps:
                - set: {vars: {vip: "true"}}
                - set: {vars: {tier: '"gold"'}}
      - set: {body: '{"greeting": vars.greeting, "vip": has(vars.vip)}'}
`;

interface Harness {
  runtime: Runtime;
  session: DebugSession;
  url: string;
  paused: PausedRunView[];
  outputs: DebugOutput[];
  spans: TraceSpan[];
  logs: LogRecord[];
  nextPause(): Promise<PausedRunView>;
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

async function start(text = yaml(), clock?: ManualClock): Promise<Harness> {
  const logs: LogRecord[] = [];
  const log = createLogger({ level: 'debug', sinks: [(r) => logs.push(r)] });
  const texts = [{ file: 'flows.yaml', text }];
  const runtime = Runtime.load(texts, { registry, log, clock });
  const spans: TraceSpan[] = [];
  runtime.traces.add({ emit: () => {}, span: (s) => void spans.push(s) });
  await runtime.start();
  const session = new DebugSession();
  const steps = new DefinitionSteps(texts, registryChainShapes(registry));
  const detach = session.attach(runtime, { log, locate: steps.locate });
  const paused: PausedRunView[] = [];
  const outputs: DebugOutput[] = [];
  const waiting: Array<(p: PausedRunView) => void> = [];
  session.listen({
    paused: (p) => {
      paused.push(p);
      waiting.shift()?.(p);
    },
    output: (o) => void outputs.push(o),
  });
  stops.push(async () => {
    for (const p of session.pausedRuns()) session.resume(p.thread, 'continue', 'test');
    detach();
    await runtime.stop(1000);
  });
  const url = String(runtime.describe().connectors[0].details?.url);
  return { runtime, session, url, paused, outputs, spans, logs, nextPause: () => new Promise((r) => waiting.push(r)) };
}

const post = (url: string, body: unknown) => fetch(`${url}/greet`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer s3cr3t-token' }, body: JSON.stringify(body) });

describe('a debug session on a running flow', () => {
  it('pauses only the request whose body matches the condition while the others are answered', async () => {
    const h = await start();
    h.session.setBreakpoints([{ id: 1, step: 'flows.greet.steps[2]', condition: 'body.customer == "bob"' }]);
    const pausing = h.nextPause();
    const bob = post(h.url, { customer: 'bob' });
    const p = await pausing;
    expect(p).toMatchObject({ step: 'flows.greet.steps[2]', reason: 'breakpoint', breakpointId: 1, flow: 'greet', origin: 'live' });
    expect(p.frames[0]).toMatchObject({ step: 'flows.greet.steps[2]', file: 'flows.yaml', line: 16, block: 'set' });
    // Others flow meanwhile.
    const alice = await post(h.url, { customer: 'alice' });
    expect(await alice.json()).toEqual({ greeting: 'hello alice', vip: false });
    expect(await h.session.evaluate(p.thread, 'body.customer')).toBe('bob');
    expect(await h.session.evaluate(p.thread, 'vars.greeting + "!"')).toBe('hello bob!');
    expect(p.message.headers?.authorization).toBe('[redacted]');
    await expect(h.session.evaluate(p.thread, 'body.customer ==')).rejects.toThrow(/body\.customer ==/);
    // An edit changes what the rest of the run sees.
    const edited = h.session.edit(p.thread, ['vars', 'greeting'], 'hi bob', 'studio (ana)');
    expect(edited.edits).toEqual([{ path: 'vars.greeting', before: 'hello bob', after: 'hi bob', by: 'studio (ana)', at: expect.any(Number) }]);
    h.session.resume(p.thread, 'continue', 'studio (ana)');
    expect(await (await bob).json()).toEqual({ greeting: 'hi bob', vip: true });
    // The trace shows the pause and the edit: who, before and after.
    const span = h.spans.find((s) => s.kind === 'debug');
    expect(span).toMatchObject({ name: 'paused before flows.greet.steps[2]', flow: 'greet', detail: { action: 'continue', by: 'studio (ana)', edits: [{ path: 'vars.greeting', before: 'hello bob', after: 'hi bob' }] } });
  });

  it('writes a logpoint’s line into the run’s log and goes on without pausing', async () => {
    const h = await start();
    h.session.setBreakpoints([{ id: 7, step: 'flows.greet.steps[0]', logMessage: 'customer={body.customer} size={size(body)}' }]);
    const res = await post(h.url, { customer: 'carol' });
    expect(res.status).toBe(200);
    expect(h.paused).toEqual([]);
    expect(h.outputs).toMatchObject([{ text: 'customer=carol size=1', category: 'console', step: 'flows.greet.steps[0]', breakpointId: 7 }]);
    expect(h.logs.find((l) => l.msg === 'customer=carol size=1')).toMatchObject({ flow: 'greet', step: 'flows.greet.steps[0]', logpoint: true });
  });

  it('steps over, into a switch case and out of it, with the nested step’s frames', async () => {
    const h = await start();
    h.session.setBreakpoints([{ id: 1, step: 'flows.greet.steps[1]' }]);
    let pausing = h.nextPause();
    const res = post(h.url, { customer: 'bob' });
    let p = await pausing;
    expect(p.step).toBe('flows.greet.steps[1]');
    pausing = h.nextPause();
    h.session.resume(p.thread, 'stepIn', 'test');
    p = await pausing;
    expect(p.step).toBe('flows.greet.steps[1].switch.cases[0].steps[0]');
    expect(p.reason).toBe('step');
    expect(p.frames.map((f) => [f.step, f.line])).toEqual([
      ['flows.greet.steps[1].switch.cases[0].steps[0]', 14],
      ['flows.greet.steps[1]', 9],
    ]);
    expect(p.frames[1]).toMatchObject({ name: 'shape', block: 'switch' });
    pausing = h.nextPause();
    h.session.resume(p.thread, 'next', 'test');
    p = await pausing;
    expect(p.step).toBe('flows.greet.steps[1].switch.cases[0].steps[1]');
    pausing = h.nextPause();
    h.session.resume(p.thread, 'stepOut', 'test');
    p = await pausing;
    expect(p.step).toBe('flows.greet.steps[2]');
    h.session.resume(p.thread, 'next', 'test');
    expect(await (await res).json()).toEqual({ greeting: 'hello bob', vip: true });
  });

  it('fails an aborted run with an error saying where and by whom', async () => {
    const h = await start();
    h.session.setBreakpoints([{ id: 1, step: 'flows.greet.steps[2]' }]);
    const pausing = h.nextPause();
    const res = post(h.url, { customer: 'dan' });
    const p = await pausing;
    h.session.abort(p.thread, 'vscode');
    const answered = await res;
    expect(answered.status).toBe(500);
    expect(await answered.json()).toEqual({ error: 'aborted in the debugger before flows.greet.steps[2] by vscode' });
  });

  it('pauses on the hit the hit condition names', async () => {
    const h = await start();
    h.session.setBreakpoints([{ id: 3, step: 'flows.greet.steps[0]', hitCondition: '3' }]);
    for (const c of ['a', 'b']) expect((await post(h.url, { customer: c })).status).toBe(200);
    const pausing = h.nextPause();
    const third = post(h.url, { customer: 'c' });
    const p = await pausing;
    expect(await h.session.evaluate(p.thread, 'body.customer')).toBe('c');
    h.session.resume(p.thread, 'continue', 'test');
    expect((await third).status).toBe(200);
    expect((await post(h.url, { customer: 'd' })).status).toBe(200);
  });

  it('says which breakpoint expression does not compile', async () => {
    const h = await start();
    const checks = h.session.setBreakpoints([
      { id: 1, step: 'flows.greet.steps[0]', condition: 'body.customer ==' },
      { id: 2, step: 'flows.greet.steps[0]', logMessage: 'x={body.}' },
      { id: 3, step: 'flows.greet.steps[0]', hitCondition: 'often' },
      { id: 4, step: 'flows.greet.steps[0]', condition: 'true' },
    ]);
    expect(checks.map((c) => c.verified)).toEqual([false, false, false, true]);
    expect(checks[0].message).toMatch(/^condition: .* \(at \d+\)$/);
    expect(checks[1].message).toMatch(/^log message \{body\.\}/);
    expect(checks[2].message).toMatch(/hit condition "often" is not a count/);
  });

  it('does not let the route time out while the run is paused, and counts only the time it ran', async () => {
    const clock = new ManualClock(Date.now());
    const h = await start(yaml('2s'), clock);
    h.session.setBreakpoints([{ id: 1, step: 'flows.greet.steps[1]' }]);
    const pausing = h.nextPause();
    let answered: Response | undefined;
    const res = post(h.url, { customer: 'erin' }).then((r) => (answered = r));
    const p = await pausing;
    await clock.advance(60_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBeUndefined();
    h.session.resume(p.thread, 'continue', 'test');
    expect((await res).status).toBe(200);
  });

  it('with workers: 1, holds other runs of the flow until the paused one goes on', async () => {
    const h = await start(yaml('30s', 1));
    h.session.setBreakpoints([{ id: 1, step: 'flows.greet.steps[0]', condition: 'body.customer == "bob"' }]);
    const pausing = h.nextPause();
    const bob = post(h.url, { customer: 'bob' });
    const p = await pausing;
    let aliceDone = false;
    const alice = post(h.url, { customer: 'alice' }).then((r) => {
      aliceDone = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(aliceDone).toBe(false);
    h.session.resume(p.thread, 'continue', 'test');
    expect((await bob).status).toBe(200);
    expect(await (await alice).json()).toEqual({ greeting: 'hello alice', vip: false });
  });
});
