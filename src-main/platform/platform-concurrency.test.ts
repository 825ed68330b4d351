import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from './events.ts';
import { startTestPlatform, type TestPlatform } from './testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

// The lease contention below is real concurrency over real HTTP against real-time TTLs: its
// sleeps are the contenders' back-off and work, not waits for something to happen.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('concurrency', () => {
  it('loses no update when 20 clients increment one KV value with version CAS', async () => {
    const path = '/v1/kv/user/entry?key=counter';
    expect((await platform.call('PUT', path, { body: '0', headers: { 'x-object-version': '0' } })).status).toBe(201);
    let successes = 0;
    let conflicts = 0;
    const client = async (): Promise<void> => {
      for (let done = 0; done < 5; ) {
        const read = await platform.call('GET', path);
        const write = await platform.call('PUT', path, {
          body: String(Number(read.text) + 1),
          headers: { 'x-object-version': read.headers.get('x-object-version')! },
        });
        if (write.status === 200 || write.status === 201) {
          successes++;
          done++;
        } else {
          expect(write.status).toBe(409);
          conflicts++;
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, client));
    expect(successes).toBe(100);
    expect(Number((await platform.call('GET', path)).text)).toBe(successes);
    expect(conflicts).toBeGreaterThan(0); // the clients really raced
  }, 120_000); // 200+ requests racing: long on a loaded machine (and on PostgreSQL)

  it('never has two unexpired holders among 20 contenders on one lease', async () => {
    const name = 'contended';
    const events: PlatformEvent[] = [];
    const stop = platform.server.events.subscribe((e) => {
      if (e.type.startsWith('lease.') && 'name' in e && e.name === name) events.push(e);
    });
    const held: Array<{ holder: string; from: number; to: number; fencingToken: number }> = [];
    // Contend for at least 3 s and until enough grants happened to mean something (a loaded
    // machine grants fewer per second), but never beyond 20 s.
    const started = Date.now();
    const contending = (): boolean => Date.now() - started < 3000 || (held.length < 8 && Date.now() - started < 20_000);
    const contender = async (id: number): Promise<void> => {
      while (contending()) {
        const res = await platform.call('POST', '/v1/leases/acquire', { json: { name, holder: `c${id}`, ttlSeconds: 1 } });
        const body = res.json as { acquired: boolean; leaseId?: string; expiresAt?: string; fencingToken?: number };
        if (!body.acquired) {
          await sleep(5 + Math.random() * 20);
          continue;
        }
        const from = Date.now();
        await sleep(Math.random() * 150);
        if (Math.random() < 0.25) {
          // Dies holding the lease: the name is blocked until the TTL passes.
          held.push({ holder: `c${id}`, from, to: Date.parse(body.expiresAt!), fencingToken: body.fencingToken! });
          continue;
        }
        // A client holds the lease until it releases it or its TTL ends, whichever is first: a
        // release that a loaded machine delays past the TTL no longer counts as holding.
        held.push({ holder: `c${id}`, from, to: Math.min(Date.now(), Date.parse(body.expiresAt!)), fencingToken: body.fencingToken! });
        await platform.call('POST', `/v1/leases/${body.leaseId}/release`);
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => contender(i)));
    stop();

    expect(held.length).toBeGreaterThan(5);
    // As clients saw it: holding periods never overlap, and later holders carry larger fencing tokens.
    held.sort((a, b) => a.from - b.from);
    for (let i = 1; i < held.length; i++) {
      expect(held[i].from, `${held[i].holder} overlapped ${held[i - 1].holder}`).toBeGreaterThanOrEqual(held[i - 1].to);
      expect(held[i].fencingToken).toBeGreaterThan(held[i - 1].fencingToken);
    }
    // As the server saw it: each grant came after the previous claim was released or expired.
    let current: { leaseId: string; expiresAt: number; released: boolean } | undefined;
    for (const e of events) {
      if (e.type === 'lease.grant') {
        if (current) expect(current.released || e.at >= current.expiresAt).toBe(true);
        current = { leaseId: e.leaseId, expiresAt: e.expiresAt, released: false };
      } else if (e.type === 'lease.release' && current && e.leaseId === current.leaseId) {
        current.released = true;
      }
    }
  }, 60_000); // contends up to 20 s

  it('gets 1,000 messages through 4 competing consumers of one group, each acked exactly once', async () => {
    const subject = 'work';
    const total = 1000;
    const received = new Map<number, number>();
    const perConsumer = [0, 0, 0, 0];
    let acked = 0;
    // Bounded, and generous: about 4 s on an idle machine, several times that on a loaded one.
    const deadline = Date.now() + 90_000;
    const consumer = async (index: number): Promise<void> => {
      while (acked < total && Date.now() < deadline) {
        const res = await platform.call('POST', `/v1/queues/${subject}/receive`, { json: { consumerGroup: 'workers', waitSeconds: 1, maxMessages: 10 } });
        if (res.status === 204) continue;
        const messages = (res.json as { messages: Array<{ handle: string; body: number }> }).messages;
        for (const m of messages) received.set(m.body, (received.get(m.body) ?? 0) + 1);
        perConsumer[index] += messages.length;
        const ack = await platform.call('POST', `/v1/queues/${subject}/ack`, { json: { handles: messages.map((m) => m.handle) } });
        expect(ack.status).toBe(204);
        acked += messages.length;
      }
    };
    const parked = platform.nextTimer();
    const consumers = Array.from({ length: 4 }, (_, i) => consumer(i));
    await parked; // consumers are waiting: publishes wake them
    for (let start = 0; start < total; start += 50) {
      const batch = Array.from({ length: 50 }, (_, i) => start + i);
      const answers = await Promise.all(batch.map((n) => platform.call('POST', `/v1/queues/${subject}/publish`, { json: { body: n } })));
      expect(answers.every((a) => a.status === 202)).toBe(true);
    }
    await Promise.all(consumers);

    expect(received.size).toBe(total);
    expect([...received.values()].every((count) => count === 1)).toBe(true);
    expect(perConsumer.filter((n) => n > 0).length).toBeGreaterThan(1);
    expect(acked).toBe(total);
    const after = await platform.call('POST', `/v1/queues/${subject}/receive`, { json: { consumerGroup: 'workers', waitSeconds: 0 } });
    expect(after.status).toBe(204);
  }, 120_000);
});
