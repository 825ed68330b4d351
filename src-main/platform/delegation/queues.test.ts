import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seg, startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ manualClock: true, features: { queues: { maxMessageBytes: 2048 } } });
});
afterAll(() => platform.close());

interface Delivered {
  messageId: string;
  handle: string;
  deliveryCount: number;
  publishedAt: string;
  body: unknown;
  headers?: Record<string, string>;
}

let subjects = 0;
/** A fresh subject per test, with a slash so percent-encoding is exercised everywhere. */
const freshSubject = () => `orders/q${++subjects}`;
const publish = (subject: string, body: unknown, headers?: Record<string, string>) =>
  platform.call('POST', `/v1/queues/${seg(subject)}/publish`, { json: { body, headers } });
const receive = (subject: string, consumerGroup: string, options: { waitSeconds?: number; maxMessages?: number; ackDeadlineSeconds?: number } = {}) =>
  platform.call('POST', `/v1/queues/${seg(subject)}/receive`, { json: { consumerGroup, waitSeconds: 0, ...options } });
const messages = (res: { json: unknown }): Delivered[] => (res.json as { messages: Delivered[] }).messages;
const settle = (subject: string, verb: 'ack' | 'nack', handles: string[], delaySeconds?: number) =>
  platform.call('POST', `/v1/queues/${seg(subject)}/${verb}`, { json: { handles, delaySeconds } });
// Ack deadlines, nack delays and long-poll windows pass on the server's clock: moved, not waited
// for, on SQLite (platform.elapse). The suite that moves it runs its tests one after another.
const elapse = (ms: number) => platform.elapse(ms);
/** Tracks whether a request has been answered yet. */
const tracked = <T>(p: Promise<T>) => {
  const state = { answered: false, result: p };
  void p.finally(() => (state.answered = true)).catch(() => {});
  return state;
};
/**
 * Asserts a receive is still waiting, after 50 ms of real time for an answer that wrongly came
 * to cross loopback. Only on the moved clock: on PostgreSQL the deadline runs in real time and
 * the moment it passes is not the test's to hold.
 */
const expectStillWaiting = async (polling: { answered: boolean }) => {
  if (!platform.clock) return;
  await new Promise((r) => setTimeout(r, 50));
  expect(polling.answered).toBe(false);
};

describe('queue messages (§3.3 state table over HTTP)', () => {
  it('publishes with 202 and delivers the body, headers, a settle handle and deliveryCount 1', async () => {
    const subject = freshSubject();
    await receive(subject, 'deploy-a'); // the group exists before the publish
    const published = await publish(subject, { order: 42, items: ['a'] }, { 'content-type': 'application/json' });
    expect(published.status).toBe(202);
    const res = await receive(subject, 'deploy-a');
    expect(res.status).toBe(200);
    const [m] = messages(res);
    expect(m).toMatchObject({ messageId: (published.json as { messageId: string }).messageId, deliveryCount: 1, body: { order: 42, items: ['a'] } });
    expect(m.headers).toEqual({ 'content-type': 'application/json' });
    expect(m.handle).toBeTruthy();
    expect(Date.parse(m.publishedAt)).toBeGreaterThan(Date.now() - 10_000);
  });

  it('holds an empty receive for waitSeconds and answers 204 only after the window', async () => {
    const parked = platform.nextTimer();
    const polling = tracked(receive(freshSubject(), 'deploy-a', { waitSeconds: 1 }));
    await parked;
    await elapse(900);
    await expectStillWaiting(polling);
    await elapse(100);
    expect((await polling.result).status).toBe(204);
  });

  it('answers an empty receive with waitSeconds 0 at once', async () => {
    const res = await receive(freshSubject(), 'deploy-a', { waitSeconds: 0 });
    expect(res.status).toBe(204);
    // On the moved clock a receive that waited would never answer; on PostgreSQL's real clock it
    // would take its window. The bound leaves a loaded machine room.
    expect(res.ms).toBeLessThan(2500);
  });

  it('delivers a message published during a poll at once', async () => {
    const subject = freshSubject();
    const parked = platform.nextTimer();
    const polling = receive(subject, 'deploy-a', { waitSeconds: 5 });
    await parked;
    const publishedAt = performance.now();
    await publish(subject, 'during the poll');
    const res = await polling;
    expect(res.status).toBe(200);
    expect(messages(res)[0].body).toBe('during the poll');
    // Woken by the publish, not by the 5 s window ending (which the moved clock never reaches).
    expect(performance.now() - publishedAt).toBeLessThan(2500);
  });

  it('returns at most maxMessages, oldest first', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    for (let i = 1; i <= 5; i++) await publish(subject, i);
    const first = messages(await receive(subject, 'g', { maxMessages: 3 }));
    expect(first.map((m) => m.body)).toEqual([1, 2, 3]);
    const rest = messages(await receive(subject, 'g', { maxMessages: 10 }));
    expect(rest.map((m) => m.body)).toEqual([4, 5]);
  });

  it('makes a delivered message invisible to other receivers of the group until settled', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'once');
    expect((await receive(subject, 'g')).status).toBe(200);
    expect((await receive(subject, 'g', { waitSeconds: 0 })).status).toBe(204);
  });

  it('settles on ack (204): the message never comes back, even after the ack deadline', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'acked');
    const [m] = messages(await receive(subject, 'g', { ackDeadlineSeconds: 1 }));
    expect((await settle(subject, 'ack', [m.handle])).status).toBe(204);
    await elapse(1200);
    expect((await receive(subject, 'g')).status).toBe(204);
  });

  it('answers 204 to an ack with an unknown, already acked or malformed handle and changes nothing', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'x');
    const [m] = messages(await receive(subject, 'g', { ackDeadlineSeconds: 1 }));
    expect((await settle(subject, 'ack', ['999999.abcdef', 'garbage', ''])).status).toBe(204);
    expect((await settle(subject, 'ack', [m.handle])).status).toBe(204);
    expect((await settle(subject, 'ack', [m.handle])).status).toBe(204);
  });

  it('ignores an ack with an expired handle: the message is redelivered with the next deliveryCount', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'slow consumer');
    const [first] = messages(await receive(subject, 'g', { ackDeadlineSeconds: 1 }));
    await elapse(1100);
    expect((await settle(subject, 'ack', [first.handle])).status).toBe(204);
    const [again] = messages(await receive(subject, 'g'));
    expect(again.body).toBe('slow consumer');
    expect(again.deliveryCount).toBe(2);
    // The old handle cannot settle the new delivery.
    await settle(subject, 'ack', [first.handle]);
    expect((await settle(subject, 'ack', [again.handle])).status).toBe(204);
  });

  it('keeps a delivery invisible past its deadline while extended, then delivers it again; a stale handle extends nothing', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'paused in a debugger');
    const [held] = messages(await receive(subject, 'g', { ackDeadlineSeconds: 1 }));
    const extend = (handles: string[], seconds: number) => platform.call('POST', `/v1/queues/${seg(subject)}/extend`, { json: { handles, seconds } });
    expect((await extend([held.handle], 3)).status).toBe(204);
    await elapse(2100);
    expect((await receive(subject, 'g')).status).toBe(204);
    await elapse(1000);
    const [again] = messages(await receive(subject, 'g', { ackDeadlineSeconds: 1 }));
    expect(again).toMatchObject({ body: 'paused in a debugger', deliveryCount: 2 });
    // The first delivery's handle no longer holds anything: the new one's deadline stands.
    expect((await extend([held.handle], 60)).status).toBe(204);
    await elapse(1100);
    expect(messages(await receive(subject, 'g'))[0]).toMatchObject({ deliveryCount: 3 });
  });

  it('redelivers after ackDeadlineSeconds to a receiver already waiting', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'crashed worker');
    await receive(subject, 'g', { ackDeadlineSeconds: 1 });
    const parked = platform.nextTimer();
    const polling = tracked(receive(subject, 'g', { waitSeconds: 5 }));
    await parked;
    await elapse(900);
    await expectStillWaiting(polling);
    await elapse(200);
    const res = await polling.result;
    expect(res.status).toBe(200);
    expect(messages(res)[0]).toMatchObject({ body: 'crashed worker', deliveryCount: 2 });
  });

  it('uses the server ackDeadlineSeconds by default: no redelivery before it', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'x');
    await receive(subject, 'g');
    const parked = platform.nextTimer();
    const polling = receive(subject, 'g', { waitSeconds: 1 });
    await parked;
    await elapse(1000);
    expect((await polling).status).toBe(204);
  });

  it('honours the nack delay: the message is invisible for delaySeconds, then delivered again', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'failing');
    const [m] = messages(await receive(subject, 'g'));
    expect((await settle(subject, 'nack', [m.handle], 1)).status).toBe(204);
    expect((await receive(subject, 'g', { waitSeconds: 0 })).status).toBe(204);
    const parked = platform.nextTimer();
    const polling = tracked(receive(subject, 'g', { waitSeconds: 5 }));
    await parked;
    await elapse(900);
    await expectStillWaiting(polling);
    await elapse(200);
    const res = await polling.result;
    expect(messages(res)[0]).toMatchObject({ body: 'failing', deliveryCount: 2 });
  });

  it('makes a message nacked without delay available at once', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'retry now');
    const [m] = messages(await receive(subject, 'g'));
    await settle(subject, 'nack', [m.handle]);
    expect(messages(await receive(subject, 'g'))[0]).toMatchObject({ body: 'retry now', deliveryCount: 2 });
  });

  it('ignores a nack with a handle that no longer settles anything', async () => {
    const subject = freshSubject();
    await receive(subject, 'g');
    await publish(subject, 'x');
    const [m] = messages(await receive(subject, 'g'));
    await settle(subject, 'ack', [m.handle]);
    expect((await settle(subject, 'nack', [m.handle], 0)).status).toBe(204);
    expect((await receive(subject, 'g')).status).toBe(204);
  });
});

describe.concurrent('consumer groups (§4.3 rules 1 and 4)', () => {
  it('gives every group every message, and each message to one consumer inside a group', async () => {
    const subject = freshSubject();
    await receive(subject, 'deploy-a');
    await receive(subject, 'deploy-b');
    for (const n of [1, 2, 3]) await publish(subject, n);
    for (const group of ['deploy-a', 'deploy-b']) {
      const got = messages(await receive(subject, group, { maxMessages: 10 }));
      expect(got.map((m) => m.body)).toEqual([1, 2, 3]);
      expect((await receive(subject, group)).status).toBe(204);
    }
  });

  it('keeps messages published before any consumer for the first group', async () => {
    const subject = freshSubject();
    await publish(subject, 'early');
    expect(messages(await receive(subject, 'first-group'))[0].body).toBe('early');
  });

  it('keeps a group\'s acks from settling another group\'s copy', async () => {
    const subject = freshSubject();
    await receive(subject, 'a');
    await receive(subject, 'b');
    await publish(subject, 'shared');
    const [fromA] = messages(await receive(subject, 'a'));
    await settle(subject, 'ack', [fromA.handle]);
    expect(messages(await receive(subject, 'b'))[0].body).toBe('shared');
  });

  it('keeps subjects apart, including ones that differ by an encoded slash', async () => {
    await receive('plain', 'g');
    await receive('plain/sub', 'g');
    await publish('plain/sub', 'slash');
    expect((await receive('plain', 'g')).status).toBe(204);
    expect(messages(await receive('plain/sub', 'g'))[0].body).toBe('slash');
  });
});

describe.concurrent('queue request validation', () => {
  it('refuses a receive without consumerGroup with 400 naming the field', async () => {
    const res = await platform.call('POST', '/v1/queues/x/receive', { json: { waitSeconds: 0 } });
    expect(res.status).toBe(400);
    expect(res.message).toContain('consumerGroup');
  });

  it('refuses a body above queues.maxMessageBytes with 413', async () => {
    const res = await publish(freshSubject(), 'x'.repeat(3000));
    expect(res.status).toBe(413);
    expect(res.code).toBe('message_too_large');
  });

  it('refuses a negative waitSeconds and a non-integer maxMessages with 400', async () => {
    expect((await receive('x', 'g', { waitSeconds: -1 })).status).toBe(400);
    expect((await receive('x', 'g', { maxMessages: 1.5 })).status).toBe(400);
  });

  it('refuses an ack without handles with 400', async () => {
    const res = await platform.call('POST', '/v1/queues/x/ack', { json: {} });
    expect(res.status).toBe(400);
    expect(res.message).toContain('handles');
  });

  it('refuses a body that is not JSON with 400 invalid_json, without quoting the body', async () => {
    for (const body of ['{not json', '{"password": hunter2-in-body}', '{"a": 1']) {
      const res = await platform.call('POST', '/v1/queues/x/publish', { body, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.code).toBe('invalid_json');
      expect(res.message).not.toContain('hunter2');
      expect(res.message).not.toContain('not json');
    }
  });

  it('serves a subject named "reply" as a subject, not as the reply route', async () => {
    await receive('reply', 'g');
    expect((await publish('reply', 'r')).status).toBe(202);
    expect(messages(await receive('reply', 'g'))[0].body).toBe('r');
  });
});
