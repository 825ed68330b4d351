import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioMethod } from '../../shared/studio-api.ts';
import type { StudioHarness } from './testing/studio-harness.ts';
import { startWebStudioHarness, type WebStudioHarness } from './testing/web-studio-harness.ts';

/**
 * Issue 48 item 2: no StudioApi call answers 5xx on a hostile argument. Names, ids and paths
 * that climb out (`..`, absolute, percent-encoded, backslashes), NUL bytes, very long names and
 * values of the wrong type go through the web studio's HTTP API as a page would send them;
 * every answer is a 400 saying which argument was refused, or a 404, and nothing outside the
 * workspace is read or written.
 */
const FLOW = `flows:\n  hello:\n    steps:\n      - log: {message: '"hi"'}\n`;
const CANARY = 'CANARY-7d1e-outside-the-workspace';

let w: WebStudioHarness;
let h: StudioHarness;
let outside: string;
let planted: string;

beforeAll(async () => {
  w = await startWebStudioHarness({ inside: { 'flows.yaml': FLOW, 'env/base.env': 'A=1\n', 'template/t.txt': 'hello' } });
  h = w.harness;
  // The folder beside the workspace: `../outside` from the workspace, `../../outside` from an integration.
  outside = join(h.workspaceDir, '..', 'outside');
  mkdirSync(join(outside, 'env'), { recursive: true });
  mkdirSync(join(outside, 'template'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), CANARY);
  writeFileSync(join(outside, 'flows.yaml'), `${FLOW}# ${CANARY}\n`);
  writeFileSync(join(outside, 'env', 'base.env'), `LEAK=${CANARY}\n`);
  writeFileSync(join(outside, 'template', 't.txt'), CANARY);
  planted = mkdtempSync(join(tmpdir(), 'studio-planted-'));
});

afterAll(async () => {
  await w?.close();
  rmSync(planted, { recursive: true, force: true });
});

/** Names and paths that try to leave their folder, or that no file system should be handed. */
const climbing = (): unknown[] => [
  '..',
  '../..',
  '../outside',
  '../../outside/secret.txt',
  '../outside/env/base.env',
  `${planted}/x.txt`,
  '/etc/passwd',
  '.',
  './../outside',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2foutside%2fsecret.txt',
  '..%2F..%2Foutside',
  '..\\..\\outside\\secret.txt',
  'C:\\Windows\\win.ini',
  'file:///etc/passwd',
  'a//b',
  `${'y'.repeat(300)}.txt`,
  ...unusable(),
];
/** What no name may be, whatever it names: empty, NUL or control characters, far too long, or not text at all. */
const unusable = (): unknown[] => ['', 'a\u0000b', 'flows.yaml\u0000.txt', 'line\nbreak', 'x'.repeat(5000), 42, null, { toString: '..' }, ['..'], true];

interface Attempt {
  method: StudioMethod;
  args: unknown[];
}

/** Every value in turn at argument `at`, the others `valid`. */
function each(method: StudioMethod, valid: unknown[], at: number, values: unknown[]): Attempt[] {
  return values.map((v) => ({ method, args: valid.map((a, i) => (i === at ? v : a)) }));
}

/** Arguments that name files, folders or resources of the workspace: climbing out is refused too. */
const fileReads = (): Attempt[] => [
  ...each('readFile', ['inside', 'flows.yaml'], 0, climbing()),
  ...each('readFile', ['inside', 'flows.yaml'], 1, climbing()),
  ...each('listResources', ['inside'], 0, climbing()),
  ...each('readResource', ['inside', 'env', 'base.env'], 0, climbing()),
  ...each('readResource', ['inside', 'env', 'base.env'], 1, ['../env', 'secrets', ...unusable()]),
  ...each('readResource', ['inside', 'env', 'base.env'], 2, climbing()),
  ...each('checkResourceName', ['inside', 'env', 'ok.env'], 0, climbing()),
  ...each('listTags', ['inside'], 0, climbing()),
  ...each('diffTag', ['inside', 'v1'], 1, climbing()),
  ...each('runBindings', ['inside'], 0, climbing()),
  ...each('exportBundle', ['inside'], 0, climbing()),
  ...each('listFlowTests', ['inside'], 0, climbing()),
  ...each('validateDefinition', ['inside', []], 0, climbing()),
  ...each('environmentView', [{ kind: 'working-copy', integration: 'inside' }], 0, [
    { kind: 'working-copy', integration: '../outside' },
    { kind: 'working-copy', integration: '%2e%2e' },
    { kind: 'tag', integration: 'inside', tag: '../..' },
    { kind: 'run', integration: 'inside' },
    '..',
    null,
  ]),
];

/** Arguments that are keys of stored things (runs, captures, KV, queues, agents): never paths, still checked. */
const keyReads = (): Attempt[] => [
  ...each('runDetail', ['r1'], 0, unusable()),
  ...each('compareRuns', ['r1', 'r2'], 0, unusable()),
  ...each('replayRun', ['r1'], 0, unusable()),
  ...each('captureDetail', [1], 0, ['..', -1, 1.5, 1e300, null, { id: 1 }]),
  ...each('captureAsRequest', [1], 0, ['..', -1, null]),
  ...each('revealHandshakeToken', [1], 0, ['..', -1, null]),
  ...each('queueMessage', ['orders', '1'], 0, unusable()),
  ...each('kvEntry', ['ns', 'key'], 0, unusable()),
  // A KV key is any non-empty string (spec 1 §2.4): only what is not one is refused.
  ...each('kvEntry', ['ns', 'key'], 1, unusable().filter((v) => typeof v !== 'string' || v === '')),
  ...each('agentConversation', ['agent', 'thread'], 0, unusable()),
  ...each('peekQueue', ['orders', 'workers'], 0, unusable()),
];

const fileWrites = (): Attempt[] => [
  ...each('writeFile', ['inside', 'flows.yaml', FLOW], 0, climbing()),
  ...each('writeFile', ['inside', 'new.yaml', FLOW], 1, climbing()),
  ...each('writeFile', ['inside', 'flows.yaml', FLOW], 2, [42, null, { text: FLOW }]),
  ...each('createIntegration', ['x'], 0, climbing()),
  ...each('createDefinitionFile', ['inside', 'new.yaml'], 0, climbing()),
  ...each('createDefinitionFile', ['inside', 'new.yaml'], 1, climbing()),
  ...each('renameDefinitionFile', ['inside', 'flows.yaml', 'renamed.yaml'], 1, climbing()),
  ...each('renameDefinitionFile', ['inside', 'flows.yaml', 'renamed.yaml'], 2, climbing()),
  ...each('deleteDefinitionFile', ['inside', 'flows.yaml'], 1, climbing()),
  ...each('createResource', ['inside', 'env', 'new.env', 'A=1'], 0, climbing()),
  ...each('createResource', ['inside', 'env', 'new.env', 'A=1'], 2, climbing()),
  ...each('saveResource', ['inside', 'env', 'base.env', 'A=2'], 2, climbing()),
  ...each('renameResource', ['inside', 'env', 'base.env', 'moved.env'], 2, climbing()),
  ...each('renameResource', ['inside', 'env', 'base.env', 'moved.env'], 3, climbing()),
  ...each('deleteResource', ['inside', 'template', 't.txt'], 2, climbing()),
  ...each('setRunBinding', ['inside', 'A', { kind: 'value', value: '1' }], 0, climbing()),
  ...each('createTag', ['inside', 'v9'], 0, climbing()),
  ...each('createTag', ['inside', 'v9'], 1, climbing()),
  ...each('importBundle', ['x', ''], 0, climbing()),
  ...each('saveRequest', [{ name: 'r', method: 'GET', url: 'http://127.0.0.1/' }, 'r.json'], 1, climbing().filter((v) => v !== null && v !== '')),
  ...each('deleteSavedRequest', ['r.json'], 0, climbing()),
  ...each('startIntegration', ['inside'], 0, climbing()),
];

const keyWrites = (): Attempt[] => [
  ...each('putSecret', ['API_KEY', 'v'], 0, climbing()),
  ...each('deleteSecret', ['API_KEY', false], 0, climbing()),
  ...each('setRunBinding', ['inside', 'A', { kind: 'value', value: '1' }], 1, unusable()),
  ...each('usePort', ['inside', 'http', 0], 2, [-1, 1.5, '80', null]),
  ...each('removeDeployment', ['d1'], 0, climbing()),
  ...each('deleteKvEntry', ['ns', 'key', 1], 0, unusable()),
  ...each('purgeQueue', ['orders'], 0, unusable()),
  ...each('deleteAgentConversation', ['agent', 'thread'], 0, unusable()),
  ...each('removeBreakpoint', [1], 0, ['..', -1, null]),
  ...each('moveBreakpoints', ['inside', 'flows.yaml', [], FLOW], 1, unusable()),
];

/** Every file under `dir` with its text (or size), to see that nothing changed or appeared. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else out[relative(dir, path)] = st.size < 4096 ? readFileSync(path, 'utf8') : `${st.size} bytes`;
    }
  };
  walk(dir);
  return out;
}

const call = (method: StudioMethod, args: unknown[]): Promise<{ status: number; body: string }> => w.callRaw(method, args);

async function attempt(attempts: Attempt[]): Promise<Array<{ call: string; status: number; error: string }>> {
  const answers = [];
  for (const a of attempts) {
    const { status, body } = await call(a.method, a.args);
    const error = status === 200 ? '' : (JSON.parse(body) as { error: string }).error;
    answers.push({ call: `${a.method}(${JSON.stringify(a.args).slice(0, 120)})`, status, error });
    expect(body, `${a.method} answered the canary`).not.toContain(CANARY);
  }
  return answers;
}

describe('hostile StudioApi arguments over the web studio', () => {
  it('answers every hostile read 4xx, naming the argument it refused, and reads nothing outside', async () => {
    const answers = await attempt([...fileReads(), ...keyReads()]);
    expect(answers.length).toBeGreaterThanOrEqual(35);
    expect(answers.filter((a) => a.status < 400 || a.status >= 500)).toEqual([]);
    // A refusal names the argument (`readFile: argument 2 "file" …`) or quotes the name it refused, and says why.
    for (const a of answers.filter((x) => x.status === 400)) expect(a.error, a.call).toMatch(/argument \d "\w+" \w|"[^"]+"[^"]* \w+/);
  }, 120_000);

  it('answers every hostile write 4xx and writes nothing outside the workspace', async () => {
    const before = { outside: snapshot(outside), planted: snapshot(planted), workspace: Object.keys(snapshot(h.workspaceDir)).sort() };
    const answers = await attempt([...fileWrites(), ...keyWrites()]);
    expect(answers.length).toBeGreaterThanOrEqual(31);
    expect(answers.filter((a) => a.status < 400 || a.status >= 500)).toEqual([]);
    expect({ outside: snapshot(outside), planted: snapshot(planted), workspace: Object.keys(snapshot(h.workspaceDir)).sort() }).toEqual(before);
  }, 120_000);

  it('a name that climbs out is judged, not used, by the resource name check', async () => {
    for (const name of ['..', '../../outside/secret.txt', '%2e%2e%2foutside', '/etc/passwd']) {
      const { status, body } = await call('checkResourceName', ['inside', 'env', name]);
      expect(status).toBe(200);
      expect(JSON.parse(body).value).toMatchObject({ ok: false });
    }
  });

  it('keys of stored things that look like paths are only keys: answered as absent, nothing read from disk', async () => {
    for (const [method, args] of [
      ['kvEntry', ['../../outside', 'secret.txt']],
      // Keys a flow may write (spec 1 §2.4 limits neither length nor characters).
      ['kvEntry', ['ns', 'a\u0000b']],
      ['kvEntry', ['ns', 'line\nbreak']],
      ['kvEntry', ['ns', 'x'.repeat(5000)]],
      ['runDetail', ['../../outside/secret.txt']],
      ['queueMessage', ['../outside', '1']],
    ] as const) {
      const { status, body } = await call(method, [...args]);
      expect(status, method).toBe(200);
      expect(JSON.parse(body).value, method).toBeNull();
    }
  });
});
