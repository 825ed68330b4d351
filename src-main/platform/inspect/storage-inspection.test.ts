import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../events.ts';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
const events: PlatformEvent[] = [];
beforeAll(async () => {
  // Long polls wait on a clock the test does not move: only a wake-up can end them.
  platform = await startTestPlatform({ manualClock: true });
  platform.server.events.subscribe((e) => events.push(e));
});
afterAll(() => platform.close());

const entry = (ns: string, key: string): string => `/v1/kv/${ns}/entry?key=${encodeURIComponent(key)}`;

describe('KV inspection', () => {
  it('lists namespaces and keys with version, write time and size', async () => {
    const kv = platform.server.inspect.kv;
    await platform.call('PUT', entry('user', 'orders/1'), { body: '{"total":3}', headers: { 'x-object-version': '0' } });
    await platform.call('PUT', entry('user', 'orders/2'), { body: 'plain', headers: { 'x-object-version': '0' } });
    await platform.call('PUT', entry('user', 'other'), { body: 'x', headers: { 'x-object-version': '0' } });
    expect((await kv.namespaces()).find((n) => n.namespace === 'user')?.keys).toBe(3);
    const keys = await kv.keys('user', 'orders/');
    expect(keys.map((k) => [k.key, k.bytes])).toEqual([
      ['orders/1', 11],
      ['orders/2', 5],
    ]);
    expect(keys[0].version).toBeGreaterThan(0);
    expect(keys[0].updatedAt).toBeGreaterThan(Date.now() - 10_000);
  });

  it("gives each namespace its highest version, which every write in it raises (the KV view's listings are reused until it moves)", async () => {
    const kv = platform.server.inspect.kv;
    const user = async () => (await kv.namespaces()).find((n) => n.namespace === 'user')!;
    const before = await user();
    const written = await kv.put('user', 'orders/1', Buffer.from('{"total":4}'), (await kv.entry('user', 'orders/1'))!.version);
    if (!written.ok) throw new Error(written.conflict);
    expect(await user()).toMatchObject({ keys: before.keys, lastVersion: written.version });
    expect(written.version).toBeGreaterThan(before.lastVersion);
  });

  it('never reads a secret value, nor its size', async () => {
    const kv = platform.server.inspect.kv;
    await platform.call('PUT', entry('user_secrets', 'api-token'), { body: 's3cr3t', headers: { 'x-object-version': '0' } });
    expect(await kv.keys('user_secrets')).toEqual([{ key: 'api-token', version: expect.any(Number), updatedAt: expect.any(Number) }]);
    const read = await kv.entry('user_secrets', 'api-token');
    expect(read).toEqual({ version: expect.any(Number), updatedAt: expect.any(Number), secret: true });
    expect(JSON.stringify(read)).not.toContain('s3cr3t');
    await expect(kv.put('user_secrets', 'api-token', Buffer.from('new'), read!.version)).rejects.toThrow(/Secrets panel/);
  });

  it('refuses an edit at a stale version and leaves the stored value alone', async () => {
    const kv = platform.server.inspect.kv;
    const first = await kv.put('user', 'counter', Buffer.from('1'), 0);
    expect(first.ok).toBe(true);
    const read = (await kv.entry('user', 'counter'))!;
    await platform.call('PUT', entry('user', 'counter'), { body: '2', headers: { 'x-object-version': String(read.version) } });
    const stale = await kv.put('user', 'counter', Buffer.from('99'), read.version);
    expect(stale).toEqual({ ok: false, conflict: expect.stringMatching(/^it is at version \d+, not \d+/) });
    expect((await kv.entry('user', 'counter'))!.value!.toString()).toBe('2');
    expect(events.some((e) => e.type === 'kv.put' && e.key === 'counter' && e.bytes === 2)).toBe(false);
  });

  it('emits the feed event of an edit, as the route does', async () => {
    const kv = platform.server.inspect.kv;
    const outcome = await kv.put('user', 'edited', Buffer.from('{}'), 0);
    expect(events.at(-1)).toMatchObject({ type: 'kv.put', namespace: 'user', key: 'edited', version: outcome.ok ? outcome.version : -1, created: true });
    expect(await kv.delete('user', 'edited', 0)).toEqual({ ok: true, deleted: true });
    expect(events.at(-1)).toMatchObject({ type: 'kv.delete', key: 'edited' });
  });

  it('reads a volatile entry by key', async () => {
    await platform.call('PUT', entry('user_volatile', 'session'), { body: 'v', headers: { 'x-object-version': '0' } });
    expect(await platform.server.inspect.kv.entry('user_volatile', 'session')).toMatchObject({ value: Buffer.from('v'), secret: false });
  });
});

describe('lease inspection', () => {
  it('lists holders with fencing tokens and deadlines', async () => {
    const res = await platform.call('POST', '/v1/leases/acquire', { json: { name: 'reports/count', holder: 'worker-1', ttlSeconds: 10 } });
    const claims = await platform.server.inspect.leases.claims();
    expect(claims).toContainEqual({
      kind: 'lease',
      name: 'reports/count',
      holder: 'worker-1',
      leaseId: (res.json as { leaseId: string }).leaseId,
      fencingToken: (res.json as { fencingToken: number }).fencingToken,
      ttlMs: 10_000,
      grantedAt: expect.any(Number),
      expiresAt: expect.any(Number),
    });
  });
});

describe('topic inspection', () => {
  it('shows a subscription cursor, lag, in-flight deliveries and expiry', async () => {
    const t = platform.server.inspect.topics;
    const sub = (await platform.call('POST', '/v1/topics/prices/subscriptions', { json: {} })).json as { subscriptionId: string };
    for (let i = 0; i < 3; i++) await platform.call('POST', '/v1/topics/prices/publish', { json: { body: { i } } });
    await platform.call('POST', '/v1/topics/prices/receive', { json: { subscriptionId: sub.subscriptionId, maxMessages: 1, waitSeconds: 0 } });
    const state = (await t.subscriptions()).find((s) => s.id === sub.subscriptionId)!;
    expect(state).toMatchObject({ plane: 'deployment/', subject: 'prices', lag: 3, inFlight: 1, receiving: false });
    expect(state.expiresAt - state.lastActiveAt).toBe(300_000);
    expect(await t.streams()).toContainEqual({ plane: 'deployment/', subject: 'prices', subscriptions: 1, stored: 3 });
    expect((await t.recent('deployment/', 'prices', 2)).map((m) => JSON.parse(m.body))).toEqual([{ i: 2 }, { i: 1 }]);
  });

  it('publishes a test message to a waiting receive and deletes a subscription, ending its receive', async () => {
    const t = platform.server.inspect.topics;
    const sub = (await platform.call('POST', '/v1/topics/alerts/subscriptions', { json: { system: true } })).json as { subscriptionId: string };
    const receive = (wait: number) => platform.call('POST', '/v1/topics/alerts/receive', { json: { subscriptionId: sub.subscriptionId, waitSeconds: wait } });
    let parked = platform.nextTimer();
    const waiting = receive(5);
    await parked;
    const id = await t.publish('platform', 'alerts', { level: 'high' }, { 'x-correlation-id': 'c-9' });
    expect((await waiting).status).toBe(200);
    expect(events.find((e) => e.type === 'topic.publish' && e.subject === 'alerts' && e.messageId === id)).toMatchObject({ headers: { 'x-correlation-id': 'c-9' } });

    parked = platform.nextTimer();
    const ended = receive(5);
    await parked;
    expect(await t.deleteSubscription(sub.subscriptionId)).toBe(true);
    expect((await ended).status).toBe(204);
    expect(events.at(-1)).toMatchObject({ type: 'topic.unsubscribe', subscriptionId: sub.subscriptionId });
    expect(await t.deleteSubscription(sub.subscriptionId)).toBe(false);
  });
});

describe('agent memory inspection', () => {
  const thread = (key: string, rest: string) => `/v1/agent-memory/support-bot/threads/${key}${rest}`;

  it('lists agents, conversations with working-memory size, turns in order, and memories per person', async () => {
    const a = platform.server.inspect.agents;
    await platform.call('POST', thread('t-1', '/turns?userId=ana'), { json: { turns: [{ role: 'user', content: 'my refund is late' }, { role: 'assistant', content: 'checking' }] } });
    await platform.call('PUT', thread('t-1', '/working'), { body: '{"step":2}', headers: { 'x-object-version': '0', 'x-agent-iteration': '2', 'x-agent-tokens': '40' } });
    await platform.call('PUT', '/v1/agent-memory/support-bot/users/ana/memories?name=tone', { json: 'prefers short answers', headers: { 'x-object-version': '0' } });
    expect(await a.agents()).toEqual([{ agentId: 'support-bot', conversations: 1, memories: 1, lastActivity: expect.any(Number) }]);
    expect(await a.conversations('support-bot')).toEqual([
      expect.objectContaining({ threadKey: 't-1', userId: 'ana', turns: 2, workingBytes: 10, iteration: 2, tokens: 40 }),
    ]);
    expect((await a.turns('support-bot', 't-1')).map((t) => [t.seq, JSON.parse(t.turn).content])).toEqual([
      [1, 'my refund is late'],
      [2, 'checking'],
    ]);
    expect(await a.memories('support-bot')).toEqual([expect.objectContaining({ userId: 'ana', name: 'tone', content: '"prefers short answers"' })]);
    expect((await a.search('support-bot', 'refund'))?.[0]).toMatchObject({ kind: 'turn', threadKey: 't-1', seq: 1 });
  });

  it('deletes a conversation from the platform', async () => {
    const a = platform.server.inspect.agents;
    await platform.call('POST', thread('t-2', '/turns'), { json: { turns: [{ role: 'user', content: 'bye' }] } });
    expect(await a.deleteConversation('support-bot', 't-2')).toBe(true);
    expect(await a.conversation('support-bot', 't-2')).toBeUndefined();
    expect((await platform.call('GET', thread('t-2', ''))).status).toBe(404);
    expect(await a.search('support-bot', 'bye')).toEqual([]);
  });
});
