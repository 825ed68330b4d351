import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = join(process.cwd(), 'bin/flow-studio.js');

async function flowTest(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, 'test', ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const root = mkdtempSync(join(tmpdir(), 'cli-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const shop = join(root, 'shop');
mkdirSync(shop);
writeFileSync(
  join(shop, 'shop.yaml'),
  `connectors:
  web: {type: http, port: 0}
flows:
  order:
    source: {type: http, path: /orders, methods: [POST]}
    steps:
      - switch:
          cases:
            - when: has(body.kind) && body.kind == "gift"
              steps:
                - set: {body: '{"wrapped": true}'}
          default:
            - name: total
              set: {body: '{"total": body.qty * 2}'}
`,
);
const passing = `tests:
  totals an order:
    flow: order
    input: {body: {qty: 3}}
    expect:
      response: {status: 200, body: {total: 6}}
`;

describe('flow-studio test', { timeout: 90_000 }, () => {
  it('prints one line per test and a summary, and exits 0 when every test passes', async () => {
    writeFileSync(join(shop, 'shop.test.yaml'), passing);
    const { code, stdout } = await flowTest(shop);
    expect(stdout).toMatch(/^✓ .*shop\.test\.yaml › totals an order \(\d+ ms\)$/m);
    expect(stdout).toMatch(/^1 passed, 0 failed \(1 test, \d+ ms\)$/m);
    expect(code).toBe(0);
  });

  it('shows expected vs actual with the step that diverged, and exits 1 on a failure', async () => {
    writeFileSync(join(shop, 'shop.test.yaml'), passing.replace('total: 6', 'total: 7'));
    const { code, stdout } = await flowTest(shop);
    expect(stdout).toContain('✗ ');
    expect(stdout).toContain('response.body: differs at body.total');
    expect(stdout).toMatch(/^\s+- {3}"total": 7$/m);
    expect(stdout).toMatch(/^\s+\+ {3}"total": 6$/m);
    expect(stdout).toContain('diverged at flows.order.steps[0].switch.default[0] (total)');
    expect(stdout).toMatch(/^0 passed, 1 failed/m);
    expect(code).toBe(1);
  });

  it('writes JUnit XML for CI and prints coverage of steps and switch branches', async () => {
    writeFileSync(join(shop, 'shop.test.yaml'), passing);
    const xml = join(root, 'junit.xml');
    const { code, stdout } = await flowTest(shop, '--reporter', 'junit', '--output', xml, '--coverage');
    expect(code).toBe(0);
    expect(readFileSync(xml, 'utf8')).toMatch(/<testsuite name="[^"]*shop\.test\.yaml" tests="1" failures="0"[^>]*>\n\s*<testcase classname="[^"]*" name="totals an order" time="[\d.]+"\/>/);
    expect(stdout).toContain('steps 2/3 (67%), branches 1/2 (50%)');
    expect(stdout).toContain('step not run:      flows.order.steps[0].switch.cases[0].steps[0] (set)');
    expect(stdout).toContain('branch not taken:  flows.order.steps[0] → case 0');
  });

  it('makes the folder of a JUnit report, and refuses a report path it cannot write before running any test', async () => {
    writeFileSync(join(shop, 'shop.test.yaml'), passing);
    const xml = join(root, 'reports', 'ci', 'flow-tests.xml');
    expect((await flowTest(shop, '--reporter', 'junit', '--output', xml)).code).toBe(0);
    expect(readFileSync(xml, 'utf8')).toContain('name="totals an order"');

    const folder = await flowTest(shop, '--reporter', 'junit', '--output', join(root, 'reports'));
    expect(folder).toMatchObject({ code: 1, stdout: '' });
    expect(folder.stderr).toContain(`cannot write the report to ${join(root, 'reports')}: it is a folder; give a file name such as flow-tests.xml`);
    const blocked = await flowTest(shop, '--reporter', 'junit', '--output', join(xml, 'x.xml'));
    expect(blocked).toMatchObject({ code: 1, stdout: '' });
    expect(blocked.stderr).toContain(`a file is in the way of its folder ${xml}`);
  });

  it('names a flow a test asks for when no definition beside it declares one', async () => {
    const lonely = join(root, 'lonely');
    mkdirSync(lonely);
    writeFileSync(join(lonely, 'a.test.yaml'), 'tests:\n  t:\n    flow: order\n    expect: {outcome: completed}\n');
    const { code, stdout } = await flowTest(lonely);
    expect(stdout).toContain('no flow named "order"; no definition beside a.test.yaml declares a flow');
    expect(code).toBe(1);
  });

  it('reports a test file that does not load with file:line:col and exits 1', async () => {
    writeFileSync(join(shop, 'shop.test.yaml'), 'tests:\n  t:\n    flow: order\n    expect: {outcome: finished}\n');
    const { code, stdout } = await flowTest(shop);
    expect(stdout).toMatch(/shop\.test\.yaml:4:23 tests\.t\.expect\.outcome: "finished" is not one of completed, dropped, failed/);
    expect(code).toBe(1);
  });
});
