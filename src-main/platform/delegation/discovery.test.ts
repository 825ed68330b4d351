import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCaller, startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

describe('discovery (§2.1, §2.2)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ features: { queues: { ackDeadlineSeconds: 7, maxBatch: 25 } } });
  });
  afterAll(() => platform.close());

  it('declares specVersion 1.0, the implementation and every capability with the numbers it enforces', async () => {
    const res = await httpCaller(platform.url, undefined)('GET', '/v1/discovery');
    expect(res.status).toBe(200);
    const doc = res.json as { specVersion: string; implementation: { name: string }; features: Record<string, Record<string, unknown>> };
    expect(doc.specVersion).toBe('1.0');
    expect(doc.implementation.name).toBe('flow-studio-platform');
    expect(Object.keys(doc.features).sort()).toEqual(
      ['agentMemory', 'kv', 'leaderElection', 'leases', 'logs', 'queues', 'resources', 'secrets', 'topics', 'traces'].sort(),
    );
    for (const block of Object.values(doc.features)) expect(block.supported).toBe(true);
    expect(doc.features.kv).toMatchObject({ maxValueBytes: 1024 * 1024, namespaces: expect.arrayContaining(['user_secrets']) });
    expect(doc.features.secrets).toMatchObject({ encryptedAtRest: true });
    expect(doc.features.leases).toMatchObject({ minTtlSeconds: 1, maxTtlSeconds: 3600, defaultTtlSeconds: 15 });
    expect(doc.features.leaderElection).toMatchObject({ leaseTtlSeconds: 15, renewIntervalSeconds: 5, observeIntervalSeconds: 2 });
    expect(doc.features.queues).toMatchObject({ requestReply: true, pollTimeoutSeconds: 20, maxBatch: 25, ackDeadlineSeconds: 7 });
    expect(doc.features.topics).toMatchObject({ pollTimeoutSeconds: 20, maxBatch: 100 });
    expect(doc.features.agentMemory).toMatchObject({ semantic: false, listThreads: true, readThread: true, search: true });
    expect(doc.features.traces).toMatchObject({ maxBatch: 1000, flushIntervalMillis: 1000 });
  });

  it('enforces the numbers it declares: maxMessages is cut to queues.maxBatch', async () => {
    await platform.call('POST', '/v1/queues/batch/receive', { json: { consumerGroup: 'g', waitSeconds: 0 } });
    await Promise.all(Array.from({ length: 30 }, (_, i) => platform.call('POST', '/v1/queues/batch/publish', { json: { body: i } })));
    const res = await platform.call('POST', '/v1/queues/batch/receive', { json: { consumerGroup: 'g', waitSeconds: 0, maxMessages: 100 } });
    expect((res.json as { messages: unknown[] }).messages).toHaveLength(25);
  });
});

describe('authentication (§5)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ token: 'test-token-0123456789' });
  });
  afterAll(() => platform.close());

  it('answers 401 on every route but discovery without the bearer token', async () => {
    const anonymous = httpCaller(platform.url, undefined);
    expect((await anonymous('GET', '/v1/discovery')).status).toBe(200);
    const guarded = platform.server.routes.filter((r) => r.path !== '/v1/discovery');
    expect(guarded.length).toBeGreaterThan(30);
    for (const route of guarded) {
      const path = route.path.replace(/\{(\w+)\}/g, 'x');
      const res = await anonymous(route.method, path);
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
      expect(res.code).toBe('unauthorized');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect((await anonymous('GET', '/v1/no-such-route')).status).toBe(401);
  });

  it('answers 401 to a wrong token and serves the right one', async () => {
    const wrong = await httpCaller(platform.url, 'test-token-0123456780')('GET', '/v1/kv/user/entry?key=k');
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('test-token-0123456789');
    expect((await platform.call('GET', '/v1/kv/user/entry?key=k')).status).toBe(404);
  });

  it('answers 401 to the right token cut short, run on, or with a character of the same count but more bytes', async () => {
    for (const token of ['test-token-012345678', 'test-token-01234567890', 'test-token-012345678é', '']) {
      const res = await httpCaller(platform.url, token)('GET', '/v1/kv/user/entry?key=k');
      expect(res.status, JSON.stringify(token)).toBe(401);
      expect(res.code).toBe('unauthorized');
    }
  });

  it('mints a token when none is given, and takes none when told so', async () => {
    const minted = await startTestPlatform();
    const open = await startTestPlatform({ token: false });
    try {
      expect(minted.server.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect((await httpCaller(minted.url, undefined)('GET', '/v1/kv/user/entry?key=k')).status).toBe(401);
      expect(open.server.token).toBeUndefined();
      expect((await httpCaller(open.url, undefined)('GET', '/v1/kv/user/entry?key=k')).status).toBe(404);
    } finally {
      await minted.close();
      await open.close();
    }
  });
});

describe('routing errors (§7)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it('answers an unknown route with 501 route_not_implemented, never 404 (spec 1 §1 rule 1)', async () => {
    for (const [method, path] of [['GET', '/v1/nope'], ['GET', '/v2/discovery'], ['GET', '/v1/kv/user'], ['GET', '/v1/discovery/'], ['GET', '/'], ['POST', '/v1/queues/a/b/c/d'], ['DELETE', '/v1/unknown/x']]) {
      const res = await platform.call(method, path);
      expect(res.status, path).toBe(501);
      expect(res.code).toBe('route_not_implemented');
      expect(res.message).toContain('/v1/openapi.json');
    }
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const res = await platform.call('POST', '/v1/kv/user/entry?key=k');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT, DELETE');
    expect(res.code).toBe('method_not_allowed');
    const thread = await platform.call('PATCH', '/v1/agent-memory/a/threads/t');
    expect(thread.headers.get('allow')).toBe('GET, DELETE');
  });

  it('answers malformed percent-encoding in a path with 400', async () => {
    const res = await platform.call('POST', '/v1/queues/%E0%A4%A/publish', { json: {} });
    expect(res.status).toBe(400);
    expect(res.code).toBe('invalid_path');
  });
});

describe('switching capabilities off with a features file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flow-features-'));
  let platform: TestPlatform;
  beforeAll(async () => {
    const file = join(dir, 'features.yaml');
    writeFileSync(
      file,
      ['kv: false', 'leases: {supported: false, unsupported: noop}', 'queues: {requestReply: false}', 'agentMemory: {search: false}', 'topics: false'].join('\n'),
    );
    platform = await startTestPlatform({ features: file });
  });
  afterAll(async () => {
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('declares switched-off capabilities supported: false, with the unsupported policy when set', async () => {
    const { features } = (await platform.call('GET', '/v1/discovery')).json as { features: Record<string, Record<string, unknown>> };
    expect(features.kv).toEqual({ supported: false });
    expect(features.leases).toEqual({ supported: false, unsupported: 'noop' });
    expect(features.topics).toEqual({ supported: false });
    expect(features.queues).toMatchObject({ supported: true, requestReply: false });
    expect(features.agentMemory).toMatchObject({ supported: true, search: false });
  });

  it('answers 501 on every route of a switched-off capability, and on switched-off optional routes', async () => {
    const off = platform.server.routes.filter((r) => !r.enabled);
    expect(off.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /v1/kv/{namespace}/entry', 'POST /v1/leases/acquire', 'POST /v1/queues/{subject}/request', 'POST /v1/queues/reply', 'POST /v1/agent-memory/{agentId}/search']),
    );
    for (const route of off) {
      const res = await platform.call(route.method, route.path.replace(/\{(\w+)\}/g, 'x'), route.method === 'GET' || route.method === 'DELETE' ? {} : { json: {} });
      expect(res.status, `${route.method} ${route.path}`).toBe(501);
      expect(res.code).toBe('not_implemented');
      expect(res.message).toContain(route.capability);
    }
  });

  it('keeps the capabilities that are on working', async () => {
    expect((await platform.call('POST', '/v1/queues/x/publish', { json: { body: 1 } })).status).toBe(202);
    expect((await platform.call('GET', '/v1/agent-memory/a/threads')).status).toBe(200);
  });

  it('answers 501 to discovery when every capability is off', async () => {
    const none = await startTestPlatform({
      features: Object.fromEntries(
        ['kv', 'secrets', 'resources', 'leases', 'leaderElection', 'queues', 'topics', 'agentMemory', 'traces', 'logs'].map((n) => [n, false]),
      ),
    });
    try {
      const res = await none.call('GET', '/v1/discovery');
      expect(res.status).toBe(501);
      expect(res.code).toBe('not_implemented');
    } finally {
      await none.close();
    }
  });
});
