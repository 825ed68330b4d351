import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../server.ts';
import { httpCaller, testDatabaseUrl, WatchedClock, type Call } from '../../testing/platform-harness.ts';
import { postgresMigrations } from './postgres-migrations.ts';

const adminUrl = process.env.PLATFORM_TEST_POSTGRES_URL;
const SKIP_REASON =
  'skipped: PLATFORM_TEST_POSTGRES_URL is not set, so the PostgreSQL store and the platform suites on PostgreSQL and on two replicas did not run; ' +
  'run them with `bash .ci/postgres.sh with-server npx vitest run src-main/platform`';
if (!adminUrl) console.warn(`\n*** platform on PostgreSQL ${SKIP_REASON} ***\n`);

describe.skipIf(!adminUrl)(`the platform on PostgreSQL, two replicas sharing one database${adminUrl ? '' : ` (${SKIP_REASON})`}`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flow-platform-pg-'));
  let storeUrl: string;
  let a: PlatformServer;
  let b: PlatformServer;
  let callA: Call;
  let callB: Call;
  let db: pg.Client;
  // Tells when a receive or a request parks on either replica (it sets its window's timer).
  const clock = new WatchedClock();

  beforeAll(async () => {
    storeUrl = await testDatabaseUrl(dataDir);
    // The listener cut below is reported, and expected.
    const onInternalError = (err: Error): void => void expect(err.message).toMatch(/wake-up listener lost its connection/);
    const features = { topics: { pollTimeoutSeconds: 10 }, queues: { pollTimeoutSeconds: 20 } };
    a = await startPlatformServer({ dataDir, store: storeUrl, token: 'pg-test', features, onInternalError, clock });
    b = await startPlatformServer({ dataDir, store: storeUrl, token: 'pg-test', features, onInternalError, clock });
    callA = httpCaller(a.url, a.token);
    callB = httpCaller(b.url, b.token);
    db = new pg.Client({ connectionString: storeUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await a?.close();
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates its schema with versioned migrations, once, whichever replica starts first', async () => {
    const { rows } = await db.query('SELECT version FROM flow_schema_migrations ORDER BY version');
    expect(rows.map((r: { version: number }) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
    expect(a.storeKind).toBe('postgres');
  });

  it('refuses a database migrated by a newer server, naming both schema versions', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'flow-platform-pg-newer-'));
    const url = await testDatabaseUrl(otherDir);
    const first = await startPlatformServer({ dataDir: otherDir, store: url, token: false });
    await first.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('INSERT INTO flow_schema_migrations (version) VALUES ($1)', [postgresMigrations.length + 1]);
    await client.end();
    await expect(startPlatformServer({ dataDir: otherDir, store: url, token: false })).rejects.toThrow(
      `the platform database is at schema ${postgresMigrations.length + 1}, newer than this server knows (${postgresMigrations.length}); use a newer flow-studio`,
    );
    rmSync(otherDir, { recursive: true, force: true });
  });

  it('names an unreachable store without its password', async () => {
    const dead = 'postgres://flow:do-not-print-me@127.0.0.1:1/nowhere';
    const err = (await startPlatformServer({ dataDir, store: dead, token: false }).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain("cannot reach the platform's PostgreSQL store at postgres://flow:***@127.0.0.1:1/nowhere");
    expect(err.message).not.toContain('do-not-print-me');
  });

  it('seals *_secrets values in the database and serves them from either replica', async () => {
    const secret = 'pg-secret-value-5d1e';
    expect((await callA('PUT', '/v1/kv/user_secrets/entry?key=db%2Fpassword', { body: secret })).status).toBe(201);
    expect((await callB('GET', '/v1/kv/user_secrets/entry?key=db%2Fpassword')).text).toBe(secret);
    const { rows } = await db.query("SELECT value FROM kv_entries WHERE namespace = 'user_secrets' AND key = 'db/password'");
    expect((rows[0] as { value: Buffer }).value.includes(Buffer.from(secret))).toBe(false);
  });

  it('wakes a long poll held on one replica when the other publishes', async () => {
    const group = { consumerGroup: 'wake', waitSeconds: 10 };
    expect((await callA('POST', '/v1/queues/wake-me/receive', { json: { ...group, waitSeconds: 0 } })).status).toBe(204);
    const parked = clock.nextTimer();
    const waiting = callA('POST', '/v1/queues/wake-me/receive', { json: group });
    await parked; // the receive is parked on replica A
    const published = Date.now();
    expect((await callB('POST', '/v1/queues/wake-me/publish', { json: { body: { n: 1 } } })).status).toBe(202);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect((res.json as { messages: Array<{ body: unknown }> }).messages[0].body).toEqual({ n: 1 });
    // Far below the 10 s window: the wake-up came from LISTEN/NOTIFY, not from the window ending.
    expect(Date.now() - published).toBeLessThan(3000);
  });

  it('recovers a wake-up lost while its listener reconnected: the waiting receive looks again once it is back', async () => {
    const group = { consumerGroup: 'relisten', waitSeconds: 15 };
    expect((await callA('POST', '/v1/queues/relisten/receive', { json: { ...group, waitSeconds: 0 } })).status).toBe(204);
    const parked = clock.nextTimer();
    const waiting = callA('POST', '/v1/queues/relisten/receive', { json: group });
    await parked; // the receive is parked on replica A
    // Cut every listener of the database, then publish at once: nobody hears that notification.
    await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN flow_platform'`);
    const published = Date.now();
    expect((await callB('POST', '/v1/queues/relisten/publish', { json: { body: 'after the cut' } })).status).toBe(202);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(Date.now() - published).toBeLessThan(5000); // far below the 15 s window
  });

  it('delivers every topic message in order to a subscriber while two replicas publish concurrently (no cursor skips a late commit)', async () => {
    const sub = ((await callA('POST', '/v1/topics/gapless/subscriptions', { json: {} })).json as { subscriptionId: string }).subscriptionId;
    const total = 200;
    const publishers = [callA, callB].map(async (call, p) => {
      for (let i = p; i < total; i += 2) expect((await call('POST', '/v1/topics/gapless/publish', { json: { body: i } })).status).toBe(202);
    });
    const seen: number[] = [];
    const ids: number[] = [];
    const reader = (async () => {
      for (let round = 0; seen.length < total && round < 2000; round++) {
        const call = round % 2 === 0 ? callA : callB;
        const res = await call('POST', '/v1/topics/gapless/receive', { json: { subscriptionId: sub, waitSeconds: 2, maxMessages: 7 } });
        if (res.status === 204) continue;
        const messages = (res.json as { messages: Array<{ handle: string; messageId: string; body: number }> }).messages;
        for (const m of messages) {
          seen.push(m.body);
          ids.push(Number(m.messageId));
        }
        // Ack on the other replica: the cursor lives in the database.
        await (call === callA ? callB : callA)('POST', '/v1/topics/gapless/ack', { json: { subscriptionId: sub, handles: messages.map((m) => m.handle) } });
      }
    })();
    await Promise.all([...publishers, reader]);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids[ids.length - 1] - ids[0]).toBe(total - 1); // consecutive: nothing skipped, nothing twice
  });

  it('answers a request held on one replica with a reply posted to the other', async () => {
    const parked = clock.nextTimer();
    const consumer = (async () => {
      const res = await callB('POST', '/v1/queues/rr/receive', { json: { consumerGroup: 'svc', waitSeconds: 10 } });
      const [m] = (res.json as { messages: Array<{ handle: string; replyTo: string; body: unknown }> }).messages;
      expect((await callB('POST', '/v1/queues/reply', { json: { replyTo: m.replyTo, body: { echo: m.body } } })).status).toBe(204);
      await callB('POST', '/v1/queues/rr/ack', { json: { handles: [m.handle] } });
      // The request is answered: a second reply finds nothing waiting on any replica.
      expect((await callA('POST', '/v1/queues/reply', { json: { replyTo: m.replyTo, body: 'late' } })).status).toBe(404);
    })();
    await parked; // the consumer's receive is parked on replica B
    const res = await callA('POST', '/v1/queues/rr/request', { json: { body: 'ping', timeoutSeconds: 10 } });
    await consumer;
    expect(res.status).toBe(200);
    expect((res.json as { body: unknown }).body).toEqual({ echo: 'ping' });
  });

  it('ends a topic receive waiting on one replica when the other deletes the subscription', async () => {
    const sub = ((await callA('POST', '/v1/topics/bye/subscriptions', { json: {} })).json as { subscriptionId: string }).subscriptionId;
    const parked = clock.nextTimer();
    const waiting = callA('POST', '/v1/topics/bye/receive', { json: { subscriptionId: sub, waitSeconds: 10 } });
    await parked; // the receive is parked on replica A
    const started = Date.now();
    expect((await callB('DELETE', `/v1/topics/bye/subscriptions/${sub}`)).status).toBe(204);
    expect((await waiting).status).toBe(204);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('finds agent memory with PostgreSQL full-text search, best match first', async () => {
    const turns = (key: string, content: string) =>
      callA('POST', `/v1/agent-memory/helper/threads/${key}/turns`, { json: { turns: [{ role: 'user', content }] } });
    await turns('t1', 'the parcel to Lisbon is late');
    await turns('t2', 'Lisbon Lisbon weather and parcel tracking');
    await turns('t3', 'nothing related');
    const res = await callB('POST', '/v1/agent-memory/helper/search', { json: { query: 'lisbon parcel' } });
    const hits = (res.json as { hits: Array<{ threadKey: string; score: number }> }).hits;
    expect(hits.map((h) => h.threadKey).sort()).toEqual(['t1', 't2']);
    expect(hits[0].score).toBeGreaterThanOrEqual(hits[1].score);
  });
});
