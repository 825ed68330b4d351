import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../../platform/index.ts';
import { runtimeOn, type RuntimeOnPlatform } from '../../services/testing/runtime-on-platform.ts';

let dataDir: string;
let platform: PlatformServer;
let r: RuntimeOnPlatform;

const agentFlows = `flows:
  turn:
    steps:
      - agent-memory-load: {agent: helper, thread: body.thread, user: '"u-1"', context: '{"tenantKey": "tk-secret-123"}'}
      - agent-memory-append:
          agent: helper
          thread: body.thread
          user: '"u-1"'
          turns: '[{"role": "user", "content": body.text}, {"role": "assistant", "content": "noted " + body.text}]'
      - agent-memory-save:
          agent: helper
          thread: body.thread
          state: '{"notes": (vars.memory.state == null ? [] : vars.memory.state.notes) + [body.text]}'
          iteration: vars.memory.iteration + 1
  stale:
    steps:
      - agent-memory-save: {agent: helper, thread: body.thread, state: '{}', version: '1'}
  recall:
    steps:
      - agent-memory-search: {agent: helper, query: body.q, limit: 5}
`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flow-agent-'));
  platform = await startPlatformServer({ dataDir });
  r = await runtimeOn(platform, agentFlows);
});
afterAll(async () => {
  await r.stop();
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('agent memory blocks', () => {
  it('resumes a conversation from nothing, then from what the last turn saved', async () => {
    const first = await r.runtime.run('turn', { thread: 't-1', text: 'likes tea' });
    expect(first.error?.message).toBeUndefined();
    expect(first.message.vars.memory).toMatchObject({ state: null, iteration: 0, tokens: 0 });
    const second = await r.runtime.run('turn', { thread: 't-1', text: 'lives in Oslo' });
    expect(second.error?.message).toBeUndefined();
    const saved = await r.services.agentMemory.loadWorking('helper', 't-1');
    expect(JSON.parse(Buffer.from(saved!.data).toString())).toEqual({ notes: ['likes tea', 'lives in Oslo'] });
    expect(saved!.iteration).toBe(2);
    const thread = (await r.services.agentMemory.readThread('helper', 't-1')) as { userId: string; turns: Array<{ seq: number; content: string }> };
    expect(thread.userId).toBe('u-1');
    expect(thread.turns.map((t) => `${t.seq} ${t.content}`)).toEqual(['1 likes tea', '2 noted likes tea', '3 lives in Oslo', '4 noted lives in Oslo']);
  });

  it('fails a save at a stale version with 409', async () => {
    await r.runtime.run('turn', { thread: 't-2', text: 'a' });
    await r.runtime.run('turn', { thread: 't-2', text: 'b' });
    expect((await r.runtime.run('stale', { thread: 't-2' })).error?.message).toMatch(/agent memory save helper\/t-2: version 1 is not the stored version \(409\)/);
  });

  it('searches the agent’s conversations, most relevant first', async () => {
    const result = await r.runtime.run('recall', { q: 'Oslo' });
    expect(result.message.body).toEqual([expect.objectContaining({ kind: 'turn', threadKey: 't-1' }), expect.objectContaining({ kind: 'turn' })]);
  });

  it('never logs the agent context', () => {
    expect(JSON.stringify(r.logs)).not.toContain('tk-secret-123');
  });
});

describe('agent memory against a platform that lacks it', () => {
  it('forwards the agent context as base64url JSON, and turns agent memory off when a save answers 404', async () => {
    const seen: Array<{ method: string; path: string; headers: IncomingHttpHeaders }> = [];
    const fake = createServer((req, res) => {
      req.resume();
      const path = req.url ?? '';
      seen.push({ method: req.method ?? '', path, headers: req.headers });
      if (path.startsWith('/v1/discovery')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ specVersion: '1.0', features: { agentMemory: { supported: true } } }));
      } else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"no such route"}}');
    });
    await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const rt = await runtimeOn({ url, token: undefined }, agentFlows);
    try {
      const result = await rt.runtime.run('turn', { thread: 't-9', text: 'hi' });
      expect(result.outcome).toBe('failed');
      expect(result.error?.message).toMatch(
        /agent memory append helper\/t-9: the platform capability "agentMemory" is off \(POST \/v1\/agent-memory\/helper\/threads\/t-9\/turns answered 404, which means the platform does not implement agent memory; unsupported: noop\)/,
      );
      const load = seen.find((s) => s.path.startsWith('/v1/agent-memory/helper/threads/t-9/working'))!;
      expect(load.path).toBe('/v1/agent-memory/helper/threads/t-9/working?userId=u-1');
      expect(JSON.parse(Buffer.from(load.headers['x-flow-agent-context'] as string, 'base64url').toString())).toEqual({ tenantKey: 'tk-secret-123' });
      expect(load.headers['x-flow-agent-context']).not.toContain('=');
      // Off for the process: the next turn makes no agent-memory call at all.
      const before = seen.length;
      await rt.runtime.run('turn', { thread: 't-9', text: 'again' });
      expect(seen.length).toBe(before);
      expect(rt.logs.filter((l) => l.msg.startsWith('platform capability agentMemory turned off'))).toHaveLength(1);
      expect(JSON.stringify(rt.logs)).not.toContain('tk-secret-123');
    } finally {
      await rt.stop();
      await new Promise((ok) => fake.close(ok));
    }
  });
});
