import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DapClient, type DapMessage } from './dap-client.test-support.ts';

// Line 8: the first step; 9: the switch; 14 and 15: its case's steps; 16: the answer.
const FLOW = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  shape:
    source: {type: http, path: /shape}
    steps:
      # the greeting first
      - set: {vars: {greeting: '"hello " + body.customer'}}
      - name: vip
        switch:
          cases:
            - when: body.customer == "bob"
              steps:
                - set: {vars: {vip: "true"}}
                - set: {vars: {tier: '"gold"'}}
      - set: {body: '{"greeting": vars.greeting, "tier": has(vars.tier) ? vars.tier : "none"}'}
`;

let root: string;
let program: string;
let flowFile: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dap-step-'));
  program = join(root, 'shape');
  mkdirSync(program);
  flowFile = join(program, 'flows.yaml');
  writeFileSync(flowFile, FLOW);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const post = (url: string, customer: string) =>
  fetch(`${url}/shape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer }) }).then((r) => r.json() as Promise<unknown>);

/** The adapter started, launched on the program, configured with `breakpoints` on the flow file; resolves with the connector's URL. */
async function serving(dap: DapClient, breakpoints: Array<Record<string, unknown>>): Promise<string> {
  const init = await dap.request('initialize', { clientID: 'test', adapterID: 'flow-studio', linesStartAt1: true, pathFormat: 'path' });
  // What the adapter does not do is not offered: disconnect always ends the program, and a continue
  // or step acts on the thread named only.
  expect(init.body).toMatchObject({ supportTerminateDebuggee: false, supportsSingleThreadExecutionRequests: false, supportsTerminateRequest: true });
  const launch = await dap.request('launch', { program, dataDir: join(root, 'data') });
  expect(launch.success, launch.message).toBe(true);
  await dap.event('initialized');
  await dap.request('setBreakpoints', { source: { path: flowFile }, breakpoints });
  await dap.request('configurationDone');
  const listening = await dap.event('output', (e) => /^connector http listening on /.test(String(e.body?.output)));
  return /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(listening.body!.output))![1];
}

describe('flow-studio debug --dap: pause, step over, into and out, hit counts', () => {
  it('pauses the next run on the client’s pause button, then steps over, into the switch case and out of it', async () => {
    const dap = new DapClient();
    try {
      const url = await serving(dap, []);
      const threads = (await dap.request('threads')).body!.threads as Array<{ id: number; name: string }>;
      expect(threads).toEqual([{ id: 1, name: 'running flows' }]);
      expect((await dap.request('pause', { threadId: 1 })).success).toBe(true);

      const answered = post(url, 'bob');
      let stopped: DapMessage = await dap.event('stopped', (e) => e.body?.reason === 'pause');
      const thread = Number(stopped.body!.threadId);
      expect(thread).not.toBe(1);
      const at = async (): Promise<Array<{ line: number; name: string }>> => (await dap.request('stackTrace', { threadId: thread })).body!.stackFrames as Array<{ line: number; name: string }>;
      const step = async (command: 'next' | 'stepIn' | 'stepOut'): Promise<void> => {
        const seen = dap.events.length;
        const answer = await dap.request(command, { threadId: thread });
        expect(answer.success).toBe(true);
        const continued = await dap.event('continued', (e) => dap.events.indexOf(e) >= seen && e.body?.threadId === thread);
        stopped = await dap.event('stopped', (e) => dap.events.indexOf(e) >= seen && e.body?.reason === 'step');
        // The protocol's order (and VS Code's, which marks the thread running when the answer comes):
        // the answer first, then the events the step causes; a stopped event before it is overridden.
        expect(continued.seq).toBeGreaterThan(answer.seq);
        expect(stopped.seq).toBeGreaterThan(answer.seq);
      };
      expect((await at()).map((f) => f.line)).toEqual([8]);

      await step('next');
      expect((await at()).map((f) => f.line)).toEqual([9]);
      await step('stepIn');
      const inCase = await at();
      expect(inCase.map((f) => f.line)).toEqual([14, 9]);
      expect(inCase[0].name).toContain('flows.shape.steps[1].switch.cases[0].steps[0]');
      expect(inCase[1].name).toMatch(/^switch vip/);
      await step('next');
      expect((await at()).map((f) => f.line)).toEqual([15, 9]);
      await step('stepOut');
      expect((await at()).map((f) => f.line)).toEqual([16]);
      expect(stopped.body!.description).toContain('flows.shape.steps[2]');

      await dap.request('continue', { threadId: thread });
      expect(await answered).toEqual({ greeting: 'hello bob', tier: 'gold' });
      await dap.event('thread', (e) => e.body?.reason === 'exited' && e.body?.threadId === thread);
      // The pause button paused one run: the next is answered without stopping.
      expect(await post(url, 'carol')).toEqual({ greeting: 'hello carol', tier: 'none' });
      expect(dap.events.filter((e) => e.event === 'stopped')).toHaveLength(5);

      // Stop, as VS Code sends it: terminate, which stops the program and says terminated; then disconnect ends the adapter.
      expect((await dap.request('terminate')).success).toBe(true);
      await dap.event('terminated');
      await expect(fetch(`${url}/shape`, { method: 'POST', body: '{}' })).rejects.toThrow();
      expect((await dap.request('disconnect', {})).success).toBe(true);
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('stops at a hit-conditional breakpoint on the matching hit only, and steps into a switch whose case is not taken as a step over', async () => {
    const dap = new DapClient();
    try {
      const url = await serving(dap, [{ line: 9, hitCondition: '2' }]);
      expect(await post(url, 'ann')).toEqual({ greeting: 'hello ann', tier: 'none' });
      const second = post(url, 'ben');
      const stopped = await dap.event('stopped');
      expect(stopped.body).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [expect.any(Number)] });
      const thread = Number(stopped.body!.threadId);
      await dap.request('stepIn', { threadId: thread });
      await dap.event('stopped', (e) => e.body?.reason === 'step');
      const frames = (await dap.request('stackTrace', { threadId: thread })).body!.stackFrames as Array<{ line: number }>;
      expect(frames.map((f) => f.line)).toEqual([16]);
      await dap.request('continue', { threadId: thread });
      expect(await second).toEqual({ greeting: 'hello ben', tier: 'none' });
      expect(await post(url, 'cy')).toEqual({ greeting: 'hello cy', tier: 'none' });
      expect(dap.events.filter((e) => e.event === 'stopped')).toHaveLength(2);
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });

  it('keeps a hit count when the client sends the file’s breakpoints again after another one was added', async () => {
    const dap = new DapClient();
    try {
      const url = await serving(dap, [{ line: 9, hitCondition: '2' }]);
      expect(await post(url, 'ann')).toEqual({ greeting: 'hello ann', tier: 'none' });
      // A logpoint added on another line: VS Code sends the file's whole list again.
      const again = await dap.request('setBreakpoints', { source: { path: flowFile }, breakpoints: [{ line: 9, hitCondition: '2' }, { line: 16, logMessage: 'answered {body.customer}' }] });
      expect((again.body!.breakpoints as Array<{ verified: boolean }>).map((b) => b.verified)).toEqual([true, true]);
      // The second run reaches the step: the hit-conditional breakpoint's second hit, so it stops.
      const second = post(url, 'ben');
      const stopped = await dap.event('stopped');
      expect(stopped.body).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [(again.body!.breakpoints as Array<{ id: number }>)[0].id] });
      await dap.request('continue', { threadId: Number(stopped.body!.threadId) });
      expect(await second).toEqual({ greeting: 'hello ben', tier: 'none' });
      await dap.request('disconnect', {});
      expect(await dap.exited).toBe(0);
    } finally {
      dap.kill();
    }
  });
});
