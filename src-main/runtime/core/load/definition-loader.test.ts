import { describe, expect, it } from 'vitest';
import { problemsOf, startYaml } from '../../testing/load-yaml.ts';

describe('loading a definition', () => {
  it('reports every problem at once, each with file:line:col and the setting path', () => {
    const problems = problemsOf(`flows:
  orders:
    workers: lots
    steps:
      - filter:
          condition: body.total >
      - sett:
          body: '1'
      - log:
          message: '"x"'
          level: loud
`);
    expect(problems).toEqual([
      'flows.yaml:3:14 flows.orders.workers: expected a number, got "lots"',
      expect.stringMatching(/^flows\.yaml:6:3\d flows\.orders\.steps\[0\]\.filter\.condition: CEL: /),
      'flows.yaml:7:9 flows.orders.steps[1]: unknown block "sett"; did you mean "set"?',
      'flows.yaml:11:18 flows.orders.steps[2].log.level: "loud" is not one of debug, info, warn, error',
    ]);
  });

  it('names a missing required setting and an unknown one', () => {
    expect(problemsOf(`flows:
  a:
    steps:
      - filter: {conditon: "true"}
`)).toEqual([
      'flows.yaml:4:17 flows.a.steps[0].filter.condition: missing required setting "condition" (Predicate over the message; only `true` keeps it.)',
      'flows.yaml:4:18 flows.a.steps[0].filter.conditon: unknown setting "conditon"; did you mean "condition"?',
    ]);
  });

  it('refuses references to undeclared variables and requires declared ones when running', () => {
    expect(problemsOf(`flows:
  a:
    steps:
      - log: {message: '"hi"', level: '\${LEVEL}'}
`)).toEqual(['flows.yaml:4:39 flows.a.steps[0].log.level: ${LEVEL} is not a declared variable; declare it under env:']);
    const text = `env:
  LEVEL: {required: true}
flows:
  a:
    steps:
      - log: {message: '"hi"', level: '\${LEVEL}'}
`;
    expect(problemsOf(text, 'validate')).toEqual([]);
    expect(problemsOf(text, 'run')).toEqual([
      'flows.yaml:2:3 env.LEVEL: required variable LEVEL has no value; bind it (environment, env resource or secret) before running',
    ]);
    expect(problemsOf(text, 'run', { LEVEL: 'verbose' })).toEqual([
      'flows.yaml:6:39 flows.a.steps[0].log.level: "verbose" is not one of debug, info, warn, error',
    ]);
  });

  it('tells the user to quote a value YAML read as a date', () => {
    expect(problemsOf(`flows:
  a:
    steps:
      - log: {message: '"x"', level: 2025-09-03}
`)[0]).toMatch(/flows\.yaml:4:38 .*level: YAML read this as a date .*quote it/);
  });

  it('reports a duplicate flow with the location of the other', () => {
    expect(problemsOf(`flows:
  a: {}
  a: {}
`).join('\n')).toMatch(/flows\.yaml:3:3/);
  });

  it('refuses a flow-ref to a flow that does not exist', () => {
    expect(problemsOf(`flows:
  a:
    steps:
      - flow-ref: {flow: lookup}
  lookups: {}
`)).toEqual(['flows.yaml:4:26 flows.a.steps[0].flow-ref.flow: no flow named "lookup"; did you mean "lookups"?']);
  });
});

describe('running a definition', () => {
  it('runs steps in order with CEL over body and vars, treating JSON numbers as doubles', async () => {
    const { runtime, logs } = await startYaml(`flows:
  price:
    steps:
      - set:
          vars: {subtotal: 'body.items.map(i, i.price * i.qty)[0] + 1'}
      - set:
          body: '{"total": vars.subtotal * 2, "count": body.count + 1}'
      - log: {message: '"total " + string(body.total)'}
`);
    const result = await runtime.run('price', { items: [{ price: 2.5, qty: 2 }], count: 41 });
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual({ total: 12, count: 42 });
    expect(logs.find((l) => l.msg.startsWith('total'))?.msg).toBe('total 12');
    await runtime.stop();
  });

  it('drops on a false filter, and rejects with a status and body when told to', async () => {
    const { runtime } = await startYaml(`flows:
  drop:
    steps: [{filter: {condition: 'body.ok'}}]
  reject:
    steps:
      - filter: {condition: 'body.ok', reject: {status: 401, body: '{"error": "no"}'}}
      - set: {body: '"unreachable"'}
`);
    expect((await runtime.run('drop', { ok: false })).outcome).toBe('dropped');
    expect((await runtime.run('drop', { ok: true })).outcome).toBe('completed');
    const rejected = await runtime.run('reject', { ok: false });
    expect(rejected.outcome).toBe('completed');
    expect(rejected.message.body).toEqual({ error: 'no' });
    expect(rejected.message.vars.httpStatus).toBe(401);
    await runtime.stop();
  });

  it('switches on a case, falls back to default, and calls another flow by reference', async () => {
    const { runtime } = await startYaml(`flows:
  route:
    steps:
      - switch:
          cases:
            - when: vars.method == "GET"
              steps: [{flow-ref: {flow: lookup}}]
          default:
            - set: {vars: {httpStatus: '405'}, body: '{"error": "method"}'}
  lookup:
    steps:
      - set: {body: '{"found": vars.id}'}
`);
    const got = await runtime.run('route', null, { method: 'GET', id: 'a1' });
    expect(got.message.body).toEqual({ found: 'a1' });
    const other = await runtime.run('route', null, { method: 'PUT' });
    expect(other.message.vars.httpStatus).toBe(405);
    await runtime.stop();
  });

  it('runs the error chain with the failure in vars.error and keeps the message failed', async () => {
    const { runtime } = await startYaml(`flows:
  a:
    steps:
      - set: {body: 'body.missing.deeper'}
    onError:
      - set: {body: '{"failedAt": vars.error.step}', vars: {httpStatus: '502'}}
`);
    const result = await runtime.run('a', {});
    expect(result.outcome).toBe('failed');
    expect(result.error?.step).toBe('flows.a.steps[0]');
    expect(result.message.body).toEqual({ failedAt: 'flows.a.steps[0]' });
    await runtime.stop();
  });

  it('records a trace of every step only while a sink listens', async () => {
    const { runtime } = await startYaml(`flows:
  a:
    steps:
      - set: {body: '1'}
      - filter: {condition: 'body == 2.0'}
`);
    await runtime.run('a');
    const events: unknown[] = [];
    const off = runtime.traces.add({ snapshots: true, emit: (e) => events.push(e) });
    await runtime.run('a');
    off();
    await runtime.run('a');
    expect(events).toEqual([
      expect.objectContaining({ kind: 'step', step: 'flows.a.steps[0]', block: 'set', outcome: 'completed', output: { body: 1, vars: {} } }),
      expect.objectContaining({ kind: 'step', step: 'flows.a.steps[1]', block: 'filter', outcome: 'dropped' }),
      expect.objectContaining({ kind: 'run', flow: 'a', outcome: 'dropped' }),
    ]);
    await runtime.stop();
  });
});

describe('secret variables', () => {
  it('never show their value in logs or traces, even when a flow prints them', async () => {
    const { runtime, logs } = await startYaml(
      `env:
  API_KEY: {secret: true, required: true}
flows:
  leaky:
    steps:
      - set: {vars: {key: '"\${API_KEY}"'}}
      - log: {message: '"using " + vars.key'}
`.replace('"${API_KEY}"', 'vars.k'),
      { API_KEY: 'sk-live-1234567890' },
    );
    const traces: unknown[] = [];
    runtime.traces.add({ snapshots: true, emit: (e) => traces.push(e) });
    await runtime.run('leaky', null, { k: 'sk-live-1234567890' });
    await runtime.stop();
    const everything = JSON.stringify(logs) + JSON.stringify(traces);
    expect(everything).not.toContain('sk-live-1234567890');
    expect(logs.some((l) => l.msg === 'using [redacted]')).toBe(true);
  });
});
