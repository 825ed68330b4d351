import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowTest } from './flow-test-runner.ts';
import { loadTestFile } from './test-file-loader.ts';
import { flowTestArtifacts } from './test-file-schema.ts';

const dir = mkdtempSync(join(tmpdir(), 'flow-tests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, 'shop.yaml'),
  `env:
  API_URL: {description: catalog, default: "https://catalog.example.com/v2"}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  catalog: {type: http-client, baseURL: "\${API_URL}"}
flows:
  order:
    source: {type: http, path: "/orders/{id}", methods: [POST]}
    steps:
      - name: require qty
        filter:
          condition: has(body.qty) && body.qty > 0
          reject: {status: 400, body: '{"error": "qty must be positive"}'}
      - set: {vars: {qty: body.qty}}
      - name: price lookup
        rest: {connector: catalog, path: /items, query: {id: vars.id}}
      - name: total
        set: {vars: {total: 'body.price * vars.qty'}}
      - kv-put: {key: '"orders/" + vars.id', value: 'vars.total'}
      - queue-publish: {subject: orders, body: '{"id": vars.id, "total": vars.total}'}
      - set: {body: '{"id": vars.id, "total": vars.total}', vars: {httpStatus: '201'}}
  progress:
    source: {type: http, path: /progress, methods: [GET], sse: {enabled: true, finalEvent: true, finalEventName: done}}
    steps:
      - sse-event: {event: step, data: '{"n": 1}'}
      - set: {body: '{"ok": true}'}
`,
);

const testFile = (name: string, yaml: string) => {
  const file = join(dir, `${name}.test.yaml`);
  writeFileSync(file, yaml);
  return file;
};

describe('flow test files', () => {
  it.each([
    ['tests:\n  a:\n    input: {}\n    expect: {}\n', '3:5 tests.a.flow: missing required setting "flow"'],
    ['tests:\n  a:\n    flow: order\n    expect: {outcom: failed}\n', '4:14 tests.a.expect.outcom: unknown setting "outcom"; did you mean "outcome"?'],
    ['tests:\n  a:\n    flow: order\n    expect: {response: {status: ok}}\n', '4:33 tests.a.expect.response.status: expected a number, got "ok"'],
    ['tests:\n  a:\n    flow: order\n    expect: {condition: "body.x =="}\n', 'tests.a.expect.condition: CEL:'],
    ['tests:\n  a:\n    flow: order\n    input: {body: {}, raw: "x", contentType: text/plain}\n    expect: {}\n', 'tests.a: input has body and raw; give one body'],
    // A misspelt expect: named with its line, not a TypeError from the check that reads expect.
    ['tests:\n  a:\n    flow: order\n    expct: {outcome: completed}\n', '4:5 tests.a.expct: unknown setting "expct"; did you mean "expect"?'],
    ['tests:\n  a:\n    flow: order\n    expect: {}\nteste: {}\n', '5:1 teste: unknown setting "teste"; did you mean "tests"?'],
  ])('%j is refused at load with file:line:col', (yaml, message) => {
    const file = testFile('bad', yaml);
    expect(() => loadTestFile(file)).toThrow(message);
    expect(() => loadTestFile(file)).toThrow(`${file}:`);
  });

  it('shared/flow-test.schema.json is what test-file.def.ts generates (run npm run gen)', () => {
    for (const a of flowTestArtifacts()) expect(readFileSync(a.path, 'utf8')).toBe(a.content);
  });
});

describe('running a flow test', () => {
  const passing = `tests:
  prices an order:
    flow: order
    input: {method: POST, path: /orders/7, body: {qty: 3}}
    stubs:
      http:
        - {method: GET, path: /v2/items, body: {price: 2.5}}
    expect:
      response: {status: 201, body: {id: "7", total: 7.5}, condition: 'body.total > 7.0'}
      outcome: completed
      vars: {total: 7.5}
      calls: [{method: GET, path: /v2/items?id=7}]
      kv: [{key: orders/7, value: 7.5, version: 1}]
      queue: [{subject: orders, body: {id: "7", total: 7.5}}]
`;

  it('passes when the run matches: response, vars, outbound calls and platform side effects', async () => {
    const [test] = loadTestFile(testFile('pass', passing));
    const r = await runFlowTest(test, dir);
    expect(r.failures).toEqual([]);
    expect(r.passed).toBe(true);
  });

  it('fails with a diff and the step where the run diverged when the stub answers differently', async () => {
    const [test] = loadTestFile(testFile('diverge', passing.replace('body: {price: 2.5}', 'body: {price: 3}')));
    const r = await runFlowTest(test, dir);
    expect(r.passed).toBe(false);
    const body = r.failures.find((f) => f.what === 'response.body')!;
    expect(body.message).toBe('differs at body.total');
    expect(body.diff).toContain('-   "total": 7.5');
    expect(body.diff).toContain('+   "total": 9');
    expect(body.step).toBe('flows.order.steps[6] (set)');
    const vars = r.failures.find((f) => f.what === 'vars')!;
    expect(vars.step).toBe('flows.order.steps[3] (total)');
    expect(r.failures.map((f) => f.what)).toEqual(expect.arrayContaining(['kv user/orders/7', 'queue']));
  });

  it('names a request no stub answers, at the step that made it', async () => {
    const [test] = loadTestFile(
      testFile('nostub', `tests:\n  t:\n    flow: order\n    input: {method: POST, path: /orders/7, body: {qty: 1}}\n    expect: {outcome: completed}\n`),
    );
    const r = await runFlowTest(test, dir);
    expect(r.failures[0].message).toMatch(/^expected completed, got failed \(http-client catalog: GET \/v2\/items failed: Mock dispatch not matched for path '\/v2\/items\?id=7'/);
    expect(r.failures[0].step).toBe('flows.order.steps[2] (price lookup)');
  });

  it('checks server-sent events in order', async () => {
    const [test] = loadTestFile(
      testFile('sse', `tests:\n  t:\n    flow: progress\n    expect:\n      sse: [{event: step, data: {n: 1}}, {event: done, data: {ok: true}}]\n`),
    );
    expect((await runFlowTest(test, dir)).failures).toEqual([]);
  });

  it('runs a step range directly with the message that entered it', async () => {
    const [test] = loadTestFile(
      testFile('range', `tests:\n  t:\n    flow: order\n    from: total\n    to: total\n    input: {body: {price: 4}, vars: {qty: 2}}\n    expect: {vars: {total: 8}, outcome: completed}\n`),
    );
    expect((await runFlowTest(test, dir)).failures).toEqual([]);
  });

  it('fails a step range whose to comes before its from, rather than running no step and passing', async () => {
    const [test] = loadTestFile(testFile('reversed', `tests:\n  t:\n    flow: order\n    from: total\n    to: require qty\n    input: {body: {}}\n    expect: {outcome: completed}\n`));
    const { failures } = await runFlowTest(test, dir);
    expect(failures.map((f) => f.message)).toEqual(['test "t": to "require qty" (step 0) comes before from "total" (step 3) in order; to names the last step to run']);
  });

  it('starts inside a switch case by the step path, runs the rest of that case and then the rest of the flow', async () => {
    writeFileSync(
      join(dir, 'pick.yaml'),
      `flows:
  pick:
    steps:
      - switch:
          cases:
            - when: 'body.size > 10'
              steps:
                - set: {vars: {trail: '["big-1"]'}}
                - set: {vars: {trail: 'vars.trail + ["big-2"]'}}
      - set: {vars: {trail: 'vars.trail + ["after"]'}}
`,
    );
    const [test] = loadTestFile(
      testFile('nested', `tests:\n  t:\n    flow: pick\n    from: flows.pick.steps[0].switch.cases[0].steps[1]\n    input: {body: {size: 1}, vars: {trail: [entered]}}\n    expect: {vars: {trail: [entered, big-2, after]}}\n`),
    );
    expect((await runFlowTest(test, dir)).failures).toEqual([]);
    const [elsewhere] = loadTestFile(testFile('nested-bad', `tests:\n  t:\n    flow: pick\n    from: flows.pick.steps[0].switch.cases[0].steps[7]\n    expect: {}\n`));
    expect((await runFlowTest(elsewhere, dir)).failures[0].message).toContain('flows.pick.steps[0].switch.cases[0].steps[7] is not a step of flow "pick" in the current definition');
    rmSync(join(dir, 'pick.yaml'));
  });
});
