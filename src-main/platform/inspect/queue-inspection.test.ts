import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../events.ts';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  // Long polls wait on a clock the test does not move: only a wake-up can end them.
  platform = await startTestPlatform({ manualClock: true });
});
afterAll(() => platform.close());

const publish = (subject: string, body: unknown, headers?: Record<string, string>) =>
  platform.call('POST', `/v1/queues/${subject}/publish`, { json: { body, headers } });
const receive = async (subject: string, group: string, max = 1, waitSeconds = 0) =>
  (await platform.call('POST', `/v1/queues/${subject}/receive`, { json: { consumerGroup: group, maxMessages: max, waitSeconds } })).json as
    | { messages: Array<{ handle: string; messageId: string }> }
    | undefined;

describe('queue inspection', () => {
  it('counts what each consumer group holds: waiting, in flight, delayed by a nack', async () => {
    const q = platform.server.inspect.queues;
    await receive('jobs', 'workers'); // creates the group
    for (let i = 0; i < 4; i++) await publish('jobs', { n: i });
    const taken = await receive('jobs', 'workers', 2);
    await platform.call('POST', '/v1/queues/jobs/nack', { json: { handles: [taken!.messages[0].handle], delaySeconds: 60 } });
    expect((await q.counts()).find((c) => c.subject === 'jobs')).toEqual({ subject: 'jobs', group: 'workers', waiting: 2, inFlight: 1, delayed: 1 });
    const peeked = await q.peek('jobs', 'workers');
    expect(peeked.map((m) => m.state)).toEqual(['waiting', 'waiting', 'in flight', 'delayed']);
    expect(JSON.parse(peeked[0].body)).toEqual({ n: 2 });
    expect(peeked[3].deliveryCount).toBe(1);
  });

  it('lists a group that has nothing stored with zeros', async () => {
    await receive('idle-subject', 'nobody-publishes');
    expect(await platform.server.inspect.queues.counts()).toContainEqual({ subject: 'idle-subject', group: 'nobody-publishes', waiting: 0, inFlight: 0, delayed: 0 });
  });

  it('gives a publish listener the headers the message came with', async () => {
    const seen: Array<Record<string, string> | undefined> = [];
    const stop = platform.server.events.subscribe((e: PlatformEvent) => {
      if (e.type === 'queue.publish' && e.subject === 'traced') seen.push(e.headers);
    });
    await publish('traced', { a: 1 }, { 'x-correlation-id': 'c-1' });
    await publish('traced', { a: 2 });
    stop();
    expect(seen).toEqual([{ 'x-correlation-id': 'c-1' }, {}]);
  });

  it('publishes a test message that wakes a waiting receive of the group', async () => {
    const q = platform.server.inspect.queues;
    await receive('orders', 'billing');
    const parked = platform.nextTimer();
    const waiting = receive('orders', 'billing', 1, 5);
    await parked;
    const started = Date.now();
    const { groups } = await q.publish('orders', { id: 7 }, { headers: { tenant: 'a' } });
    const got = await waiting;
    expect(groups).toEqual(['billing']);
    expect(got?.messages).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('publishes to one consumer group only when asked', async () => {
    const q = platform.server.inspect.queues;
    await receive('fanned', 'a');
    await receive('fanned', 'b');
    const { groups } = await q.publish('fanned', { only: 'b' }, { consumerGroup: 'b' });
    expect(groups).toEqual(['b']);
    expect(await receive('fanned', 'a')).toBeUndefined();
    expect((await receive('fanned', 'b'))?.messages).toHaveLength(1);
  });

  it('refuses a body over the queue limit, naming both sizes', async () => {
    await expect(platform.server.inspect.queues.publish('big', 'x'.repeat(1024 * 1024 + 1))).rejects.toThrow(/bytes of JSON; queues accept at most 1048576/);
  });

  it('purges one group or the whole subject', async () => {
    const q = platform.server.inspect.queues;
    await receive('purged', 'x');
    await receive('purged', 'y');
    for (let i = 0; i < 3; i++) await publish('purged', i);
    expect(await q.purge('purged', 'x')).toBe(3);
    expect(await q.purge('purged')).toBe(3);
    expect((await q.counts()).filter((c) => c.subject === 'purged').every((c) => c.waiting === 0)).toBe(true);
  });
});
