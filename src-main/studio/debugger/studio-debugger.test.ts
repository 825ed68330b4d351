import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../../shared/feed-events.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const GREET = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    source: {type: http, path: /greet, methods: [POST]}
    steps:
      - name: greeting
        set: {vars: {greeting: '"hello " + body.customer'}}
      - name: answer
        set: {body: '{"greeting": vars.greeting}'}
`;

let h: StudioHarness;
beforeAll(async () => {
  h = await startStudioHarness({ greet: { 'greet.yaml': GREET }, 'not-started': { 'quiet.yaml': GREET.replace(/greet/g, 'quiet') } });
  await h.backend.api.startIntegration('greet');
});
afterAll(() => h?.close());

const api = () => h.backend.api;
const url = () => h.states.filter((s) => s.integration === 'greet' && s.status === 'running').at(-1)!.routes[0].url;
const post = (customer: string) => fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer }) });
const isDebug = (action: string) => (e: FeedEvent) => e.kind === 'debug' && e.action === action;

describe('the studio debugger', () => {
  it('pauses the matching request at a breakpoint set by file and line, evaluates, edits, continues, and the trace shows the pause and the edit', async () => {
    const bp = await api().addBreakpoint({ integration: 'greet', file: 'greet.yaml', line: 10, condition: 'body.customer == "bob"' });
    expect(bp).toMatchObject({ step: 'flows.greet.steps[1]', line: 9, verified: true, block: 'set' });
    const bob = post('bob');
    await h.waitForFeed(isDebug('paused'));
    expect(await (await post('alice')).json()).toEqual({ greeting: 'hello alice' });
    const state = await api().debuggerState();
    expect(state.paused).toHaveLength(1);
    const paused = state.paused[0];
    expect(paused).toMatchObject({ integration: 'greet', flow: 'greet', step: 'flows.greet.steps[1]', reason: 'breakpoint', breakpointId: bp.id });
    expect(paused.frames[0]).toMatchObject({ file: 'greet.yaml', line: 9, name: 'answer' });
    expect(await api().evaluateInRun(paused.thread, 'body.customer')).toEqual({ value: 'bob' });
    await expect(api().evaluateInRun(paused.thread, 'body.customer ==')).rejects.toThrow(/body\.customer ==/);
    const edited = await api().editPausedMessage(paused.thread, ['vars', 'greeting'], 'hi bob');
    expect(edited.edits[0]).toMatchObject({ path: 'vars.greeting', before: 'hello bob', after: 'hi bob', by: expect.stringMatching(/^studio/) });
    await api().resumeRun(paused.thread, 'continue');
    expect(await (await bob).json()).toEqual({ greeting: 'hi bob' });
    const runs = await api().queryRuns({ integration: 'greet', offset: 0, limit: 10 });
    const detail = await api().runDetail(runs.rows.find((r) => r.runId === paused.runId)!.runId);
    const calls = detail!.steps.flatMap((s) => s.calls.map((c) => ({ step: s.step, ...c })));
    expect(calls).toContainEqual(expect.objectContaining({ kind: 'debug', step: 'flows.greet.steps[1]', detail: expect.objectContaining({ action: 'continue', edits: [expect.objectContaining({ path: 'vars.greeting', before: 'hello bob', after: 'hi bob' })] }) }));
    await api().removeBreakpoint(bp.id);
  });

  it('replays a stored run under the debugger with its recorded input', async () => {
    const first = await post('carol');
    expect(first.status).toBe(200);
    const runs = await api().queryRuns({ integration: 'greet', offset: 0, limit: 1 });
    const bp = await api().addBreakpoint({ integration: 'greet', file: 'greet.yaml', line: 7 });
    const replaying = api().replayRun(runs.rows[0].runId);
    await expect.poll(async () => (await api().debuggerState()).paused.length).toBe(1);
    const paused = (await api().debuggerState()).paused[0];
    expect(paused).toMatchObject({ step: 'flows.greet.steps[0]', origin: `replay of ${runs.rows[0].runId}` });
    expect(await api().evaluateInRun(paused.thread, 'body.customer')).toEqual({ value: 'carol' });
    await api().resumeRun(paused.thread, 'continue');
    expect(await replaying).toMatchObject({ replayOf: runs.rows[0].runId, outcome: 'completed' });
    await api().removeBreakpoint(bp.id);
  });

  it('keeps breakpoints across a restart, following their step when lines move', async () => {
    const bp = await api().addBreakpoint({ integration: 'greet', file: 'greet.yaml', line: 10, logMessage: 'for {body.customer}' });
    const dir = join(h.workspaceDir, 'greet');
    // Two comment lines above, and a new first step: the breakpoint's step moves down and to steps[2].
    writeFileSync(join(dir, 'greet.yaml'), GREET.replace('flows:\n', '# the greeting service\n# (two lines)\nflows:\n').replace("    steps:\n", "    steps:\n      - log: {message: '\"in\"'}\n"));
    const moved = (await api().debuggerState()).breakpoints.find((b) => b.id === bp.id)!;
    expect(moved).toMatchObject({ step: 'flows.greet.steps[2]', line: 12, logMessage: 'for {body.customer}', verified: true });
    // A restart: this studio closes, another opens on the same workspace and data directory.
    h = await h.restart();
    expect((await api().debuggerState()).breakpoints).toContainEqual(expect.objectContaining({ id: bp.id, step: 'flows.greet.steps[2]', line: 12 }));
    writeFileSync(join(dir, 'greet.yaml'), GREET);
  });

  it('says at once that a breakpoint cannot work, also on an integration that is not running', async () => {
    const bp = await api().addBreakpoint({ integration: 'not-started', file: 'quiet.yaml', line: 10, condition: 'body.(' });
    expect(bp).toMatchObject({ step: 'flows.quiet.steps[1]', verified: false, message: expect.stringMatching(/^condition: /) });
    const hits = await api().addBreakpoint({ integration: 'not-started', file: 'quiet.yaml', line: 8, hitCondition: 'often' });
    expect(hits).toMatchObject({ verified: false, message: expect.stringMatching(/hit condition "often" is not a count/) });
    expect((await api().debuggerState()).breakpoints.filter((b) => b.integration === 'not-started').map((b) => b.verified)).toEqual([false, false]);
    await api().removeBreakpoint(bp.id);
    await api().removeBreakpoint(hits.id);
  });

  it('sets a breakpoint from a line of the editor’s unsaved text on that step as saved, and refuses a step not saved yet', async () => {
    // Two lines typed above and a new first step, none of it saved: "answer" starts on line 12 of the editor.
    const typed = GREET.replace('flows:\n', '# typed\n# above\nflows:\n').replace('    steps:\n', "    steps:\n      - log: {message: '\"in\"'}\n");
    const bp = await api().addBreakpoint({ integration: 'greet', file: 'greet.yaml', line: 13, text: typed });
    expect(bp).toMatchObject({ step: 'flows.greet.steps[1]', line: 9, block: 'set' });
    await expect(api().addBreakpoint({ integration: 'greet', file: 'greet.yaml', line: 9, text: typed })).rejects.toThrow(/the step at line 9 of greet.yaml is not saved yet: save the file/);
    await api().removeBreakpoint(bp.id);
  });

  it('refuses a breakpoint on a line outside every step, saying so', async () => {
    await expect(api().addBreakpoint({ integration: 'greet', file: 'greet.yaml', line: 2 })).rejects.toThrow(/line 2 of greet.yaml is not inside a step/);
  });
});
