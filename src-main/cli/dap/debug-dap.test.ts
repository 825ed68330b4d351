import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DapClient, type DapMessage } from './dap-client.test-support.ts';

// Two steps: line 7 sets the greeting, line 8 answers with it.
const FLOW = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    source: {type: http, path: /greet}
    steps:
      - set: {vars: {greeting: '"hello " + body.customer'}}
      - set: {body: '{"greeting": vars.greeting}'}
`;

let root: string;
let program: string;
let flowFile: string;
let dataDir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dap-'));
  program = join(root, 'greet');
  dataDir = join(root, 'data');
  mkdirSync(program);
  flowFile = join(program, 'flows.yaml');
  writeFileSync(flowFile, FLOW);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function launched(args: Record<string, unknown>): Promise<DapClient> {
  const dap = new DapClient();
  const init = await dap.request('initialize', { clientID: 'test', clientName: 'DAP test client', adapterID: 'flow-studio', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  expect(init.success).toBe(true);
  expect(init.body).toMatchObject({ supportsConditionalBreakpoints: true, supportsHitConditionalBreakpoints: true, supportsLogPoints: true, supportsSetVariable: true, supportsSetExpression: true, supportsConfigurationDoneRequest: true, supportsStepBack: false });
  const launch = await dap.request('launch', { program, dataDir, ...args });
  expect(launch.success, launch.message).toBe(true);
  await dap.event('initialized');
  return dap;
}

const greet = (url: string, customer: string) =>
  fetch(`${url}/greet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer }) }).then((r) => r.json() as Promise<unknown>);

describe('flow-studio debug --dap over real stdio', () => {
  let pausedRunId = '';

  it('pauses only the matching request at a conditional breakpoint, evaluates, edits, logs and continues', async () => {
    const dap = await launched({});
    try {
      const set = await dap.request('setBreakpoints', {
        source: { path: flowFile, name: 'flows.yaml' },
        breakpoints: [{ line: 8, condition: 'body.customer == "bob"' }, { line: 7, logMessage: 'customer={body.customer}' }, { line: 2 }],
      });
      const bps = set.body!.breakpoints as Array<{ verified: boolean; line: number; message?: string }>;
      expect(bps.map((b) => [b.verified, b.line])).toEqual([
        [true, 8],
        [true, 7],
        [false, 2],
      ]);
      expect(bps[2].message).toMatch(/not inside a step/);
      expect((await dap.request('configurationDone')).success).toBe(true);
      const listening = await dap.event('output', (e) => /^connector http listening on /.test(String(e.body?.output)));
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(listening.body!.output))![1];

      const bob = greet(url, 'bob');
      const stopped = await dap.event('stopped');
      expect(stopped.body).toMatchObject({ reason: 'breakpoint', allThreadsStopped: false });
      const threadId = Number(stopped.body!.threadId);
      // Others are answered while bob waits.
      expect(await greet(url, 'alice')).toEqual({ greeting: 'hello alice' });

      const threads = (await dap.request('threads')).body!.threads as Array<{ id: number; name: string }>;
      expect(threads.map((t) => t.id)).toContain(threadId);
      pausedRunId = /greet (r\w+)/.exec(threads.find((t) => t.id === threadId)!.name)![1];
      const trace = await dap.request('stackTrace', { threadId });
      const top = (trace.body!.stackFrames as Array<{ id: number; line: number; source: { path: string }; name: string }>)[0];
      expect(top).toMatchObject({ line: 8, source: { path: flowFile } });
      expect(top.name).toContain('flows.greet.steps[1]');

      const scopes = (await dap.request('scopes', { frameId: top.id })).body!.scopes as Array<{ name: string; variablesReference: number }>;
      expect(scopes.map((s) => s.name)).toEqual(['Body', 'Vars', 'Headers']);
      const body = (await dap.request('variables', { variablesReference: scopes[0].variablesReference })).body!.variables as Array<{ name: string; value: string; evaluateName: string }>;
      expect(body).toContainEqual(expect.objectContaining({ name: 'customer', value: '"bob"', evaluateName: 'body.customer' }));
      const evaluated = await dap.request('evaluate', { expression: 'body.customer', frameId: top.id, context: 'repl' });
      expect(evaluated.body).toMatchObject({ result: '"bob"', type: 'string' });
      const bad = await dap.request('evaluate', { expression: 'body.customer ==', frameId: top.id, context: 'repl' });
      expect(bad.success).toBe(false);
      expect(bad.message).toMatch(/body\.customer ==/);

      const vars = (await dap.request('variables', { variablesReference: scopes[1].variablesReference })).body!.variables as Array<{ name: string }>;
      expect(vars.map((v) => v.name)).toContain('greeting');
      const edited = await dap.request('setVariable', { variablesReference: scopes[1].variablesReference, name: 'greeting', value: '"hi bob"' });
      expect(edited.success, edited.message).toBe(true);

      expect((await dap.request('continue', { threadId })).body).toMatchObject({ allThreadsContinued: false });
      expect(await bob).toEqual({ greeting: 'hi bob' });
      await dap.event('output', (e) => e.body?.output === 'customer=alice\n');
      await dap.event('output', (e) => e.body?.output === 'customer=bob\n');
      expect(dap.events.find((e) => e.event === 'output' && e.body?.output === 'customer=bob\n')!.body).toMatchObject({ category: 'console', line: 7 });

      const disconnect = await dap.request('disconnect', { terminateDebuggee: true });
      expect(disconnect.success).toBe(true);
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('replays a recorded run under the debugger, stopping at its breakpoints, stepping and editing', async () => {
    expect(pausedRunId).not.toBe('');
    const dap = await launched({ replay: pausedRunId });
    try {
      await dap.request('setBreakpoints', { source: { path: flowFile }, breakpoints: [{ line: 7 }] });
      await dap.request('configurationDone');
      const stopped = await dap.event('stopped');
      const threadId = Number(stopped.body!.threadId);
      const frames = (await dap.request('stackTrace', { threadId })).body!.stackFrames as Array<{ id: number; line: number }>;
      expect(frames[0].line).toBe(7);
      expect((await dap.request('evaluate', { expression: 'body.customer', frameId: frames[0].id })).body).toMatchObject({ result: '"bob"' });
      await dap.request('next', { threadId });
      const stepped: DapMessage = await dap.event('stopped', (e) => e.body?.reason === 'step');
      const next = (await dap.request('stackTrace', { threadId: Number(stepped.body!.threadId) })).body!.stackFrames as Array<{ id: number; line: number }>;
      expect(next[0].line).toBe(8);
      const set = await dap.request('setExpression', { expression: 'vars.greeting', value: '"replayed"', frameId: next[0].id });
      expect(set.success, set.message).toBe(true);
      await dap.request('continue', { threadId: Number(stepped.body!.threadId) });
      await dap.event('terminated');
      expect(dap.output()).toMatch(new RegExp(`replay of ${pausedRunId} ended completed`));
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('reports a breakpoint that cannot work when it is set before the program starts, as DAP clients set them', async () => {
    const dap = await launched({});
    try {
      const set = await dap.request('setBreakpoints', {
        source: { path: flowFile },
        breakpoints: [{ line: 7, condition: 'body.(' }, { line: 8, hitCondition: 'often' }, { line: 8, condition: '1 + "a"' }],
      });
      const bps = set.body!.breakpoints as Array<{ id: number; verified: boolean; message?: string }>;
      expect(bps.map((b) => b.verified)).toEqual([false, false, true]);
      expect(bps[0].message).toMatch(/^condition: .*\(at \d+\)/);
      expect(bps[1].message).toMatch(/hit condition "often" is not a count/);
      // What only the program's own CEL environment can tell (types, functions) is told once it is loaded.
      expect((await dap.request('configurationDone')).success).toBe(true);
      const changed = await dap.event('breakpoint', (e) => (e.body?.breakpoint as { id?: number } | undefined)?.id === bps[2].id);
      expect(changed.body).toMatchObject({ reason: 'changed', breakpoint: { id: bps[2].id, verified: false, message: expect.stringMatching(/^condition: /) } });
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('answers requests with missing or mistyped arguments with an error naming the argument, and acts on none of them', async () => {
    const dap = await launched({});
    const refused = async (command: string, args: unknown, message: RegExp) => {
      const answer = await dap.request(command, args);
      expect(answer.success, `${command} ${JSON.stringify(args)}`).toBe(false);
      expect(answer.message).toMatch(message);
    };
    try {
      await refused('setBreakpoints', {}, /^setBreakpoints needs "source": \{"path": /);
      await refused('setBreakpoints', { source: { path: flowFile }, breakpoints: [null] }, /^"breakpoints\[0\]" must be \{"line": <number>/);
      await refused('setBreakpoints', { source: { path: flowFile }, breakpoints: [{ line: '7' }] }, /^"breakpoints\[0\]\.line" must be a line number/);
      await refused('setBreakpoints', { source: { path: flowFile }, breakpoints: [{ line: 7, condition: 42 }] }, /^"breakpoints\[0\]\.condition" must be text/);
      await dap.request('setBreakpoints', { source: { path: flowFile }, breakpoints: [{ line: 7 }] });
      await dap.request('configurationDone');
      const listening = await dap.event('output', (e) => /^connector http listening on /.test(String(e.body?.output)));
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(listening.body!.output))![1];
      const dan = greet(url, 'dan');
      const threadId = Number((await dap.event('stopped')).body!.threadId);
      const frameId = ((await dap.request('stackTrace', { threadId })).body!.stackFrames as Array<{ id: number }>)[0].id;

      await refused('scopes', {}, /^scopes needs "frameId"/);
      await refused('stackTrace', { threadId: String(threadId) }, /^"threadId" must be a number/);
      await refused('continue', { threadId: String(threadId) }, /^"threadId" must be a number/);
      await refused('evaluate', { frameId }, /^evaluate needs "expression"/);
      await refused('evaluate', { frameId, expression: 42 }, /^"expression" must be text/);
      await refused('setExpression', { frameId, value: '1' }, /^setExpression needs "expression"/);
      await refused('setExpression', { frameId, expression: 'vars.y' }, /^setExpression needs "value"/);
      await refused('variables', { variablesReference: 9999 }, /variablesReference 9999 .*(went on|no longer)/);
      // A thread that is no run: refused, rather than pausing the next step of whichever run comes.
      await refused('pause', { threadId: 77 }, /thread 77/);

      expect((await dap.request('continue', { threadId })).success).toBe(true);
      expect(await dan).toEqual({ greeting: 'hello dan' });
      expect(dap.events.filter((e) => e.event === 'stopped')).toHaveLength(1);
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('keeps the variable references of a paused run valid across an edit, showing the edited value', async () => {
    const dap = await launched({});
    try {
      await dap.request('setBreakpoints', { source: { path: flowFile }, breakpoints: [{ line: 8 }] });
      await dap.request('configurationDone');
      const listening = await dap.event('output', (e) => /^connector http listening on /.test(String(e.body?.output)));
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(listening.body!.output))![1];
      const erin = greet(url, 'erin');
      const threadId = Number((await dap.event('stopped')).body!.threadId);
      const frameId = ((await dap.request('stackTrace', { threadId })).body!.stackFrames as Array<{ id: number }>)[0].id;
      const [body, vars] = (await dap.request('scopes', { frameId })).body!.scopes as Array<{ variablesReference: number }>;
      const shown = async (ref: number) => {
        const answer = await dap.request('variables', { variablesReference: ref });
        expect(answer.success, answer.message).toBe(true);
        return Object.fromEntries((answer.body!.variables as Array<{ name: string; value: string }>).map((v) => [v.name, v.value]));
      };
      expect(await shown(vars.variablesReference)).toMatchObject({ greeting: '"hello erin"' });
      // As a client's Variables view does: edit a value, then ask for the same scope again.
      expect((await dap.request('setVariable', { variablesReference: vars.variablesReference, name: 'greeting', value: '"hi erin"' })).success).toBe(true);
      expect(await shown(vars.variablesReference)).toMatchObject({ greeting: '"hi erin"' });
      expect((await dap.request('setExpression', { frameId, expression: 'body.customer', value: '"erin e."' })).success).toBe(true);
      expect(await shown(body.variablesReference)).toMatchObject({ customer: '"erin e."' });
      expect((await dap.request('continue', { threadId })).success).toBe(true);
      expect(await erin).toEqual({ greeting: 'hi erin' });
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('follows the definition file as the client edits and saves it: breakpoints by its new lines go on the running steps, and frames show the new lines', async () => {
    const edited = join(root, 'edited');
    mkdirSync(edited);
    const file = join(edited, 'flows.yaml');
    writeFileSync(file, FLOW);
    const dap = await launched({ program: edited });
    try {
      await dap.request('configurationDone');
      const listening = await dap.event('output', (e) => /^connector http listening on /.test(String(e.body?.output)));
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(listening.body!.output))![1];
      // Saved in the client's editor: a comment and a new first step above; the answer (line 8 at launch) is on line 10.
      writeFileSync(file, FLOW.replace('    steps:\n', "    steps:\n      # says hello\n      - log: {message: '\"in\"'}\n"));
      const set = await dap.request('setBreakpoints', { source: { path: file }, breakpoints: [{ line: 10 }, { line: 8 }] });
      const [answer, added] = set.body!.breakpoints as Array<{ verified: boolean; line: number; message?: string }>;
      expect(answer).toMatchObject({ verified: true, line: 10, message: 'flows.greet.steps[1]' });
      expect(added).toMatchObject({ verified: false, message: expect.stringMatching(/^line 8 is on a step added or changed since flows\.yaml was loaded, and the program runs it as it was; restart the debug session/) });
      const fay = greet(url, 'fay');
      const threadId = Number((await dap.event('stopped')).body!.threadId);
      const frames = (await dap.request('stackTrace', { threadId })).body!.stackFrames as Array<{ line: number; name: string }>;
      expect(frames.map((f) => [f.line, f.name])).toEqual([[10, 'set — flows.greet.steps[1]']]);
      await dap.request('continue', { threadId });
      expect(await fay).toEqual({ greeting: 'hello fay' });
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('refuses a launch without a usable program, saying what to pass', async () => {
    const dap = new DapClient();
    try {
      await dap.request('initialize', { adapterID: 'flow-studio' });
      const launch = await dap.request('launch', { program: join(root, 'missing'), dataDir });
      expect(launch.success).toBe(false);
      expect(launch.message).toMatch(/is not a folder/);
      const env = await dap.request('launch', { program, dataDir, env: 'API_URL=x' });
      expect(env.success).toBe(false);
      expect(env.message).toMatch(/^"env" is an object of variables with text values/);
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });
});
