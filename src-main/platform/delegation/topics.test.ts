import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seg, startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ manualClock: true, features: { topics: { ackDeadlineSeconds: 1 } } });
});
afterAll(() => platform.close());

interface TopicDelivery {
  messageId: string;
  handle: string;
  body: unknown;
}
type Plane = { system?: boolean; deploymentId?: string };

let topicCount = 0;
const freshTopic = () => `events/t${++topicCount}`;
const subscribe = async (subject: string, plane: Plane = {}, on = platform): Promise<string> => {
  const res = await on.call('POST', `/v1/topics/${seg(subject)}/subscriptions`, { json: plane });
  expect(res.status).toBe(201);
  return (res.json as { subscriptionId: string }).subscriptionId;
};
const publish = (subject: string, body: unknown, plane: Plane = {}) => platform.call('POST', `/v1/topics/${seg(subject)}/publish`, { json: { body, ...plane } });
const receive = (subject: string, subscriptionId: string, waitSeconds = 0, maxMessages = 10, on = platform) =>
  on.call('POST', `/v1/topics/${seg(subject)}/receive`, { json: { subscriptionId, waitSeconds, maxMessages } });
const bodies = (res: { json: unknown }) => (res.json as { messages: TopicDelivery[] }).messages.map((m) => m.body);
const handles = (res: { json: unknown }) => (res.json as { messages: TopicDelivery[] }).messages.map((m) => m.handle);
const ack = (subject: string, subscriptionId: string, hs: string[]) => platform.call('POST', `/v1/topics/${seg(subject)}/ack`, { json: { subscriptionId, handles: hs } });
const extend = (subject: string, subscriptionId: string, hs: string[], seconds: number) =>
  platform.call('POST', `/v1/topics/${seg(subject)}/extend`, { json: { subscriptionId, handles: hs, seconds } });
// Ack deadlines, idle expiry and long-poll windows pass on the server's clock: moved, not waited
// for, on SQLite (elapse). The suite that moves it runs its tests one after another.
const tracked = <T>(p: Promise<T>) => {
  const state = { answered: false, result: p };
  void p.finally(() => (state.answered = true)).catch(() => {});
  return state;
};
/** Still waiting after 50 ms of real loopback time; on PostgreSQL deadlines run in real time, so only on the moved clock. */
const expectStillWaiting = async (polling: { answered: boolean }, on = platform) => {
  if (!on.clock) return;
  await new Promise((r) => setTimeout(r, 50));
  expect(polling.answered).toBe(false);
};

describe('topic subscriptions (§3.4 state table over HTTP)', () => {
  it('creates a subscription (201) whose cursor starts at the end of the stream', async () => {
    const topic = freshTopic();
    await publish(topic, 'before anyone listened');
    const sub = await subscribe(topic);
    await publish(topic, 'after');
    expect(bodies(await receive(topic, sub))).toEqual(['after']);
  });

  it('gives every subscription every message', async () => {
    const topic = freshTopic();
    const a = await subscribe(topic);
    const b = await subscribe(topic);
    for (const n of [1, 2, 3]) await publish(topic, n);
    expect(bodies(await receive(topic, a))).toEqual([1, 2, 3]);
    expect(bodies(await receive(topic, b))).toEqual([1, 2, 3]);
  });

  it('holds an empty receive for waitSeconds and answers 204 after the window', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    const parked = platform.nextTimer();
    const polling = tracked(receive(topic, sub, 1));
    await parked;
    await platform.elapse(900);
    await expectStillWaiting(polling);
    await platform.elapse(100);
    expect((await polling.result).status).toBe(204);
  });

  it('delivers a message published during a poll at once', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    const parked = platform.nextTimer();
    const polling = receive(topic, sub, 5);
    await parked;
    await publish(topic, 'live');
    const res = await polling;
    expect(bodies(res)).toEqual(['live']);
    expect(res.ms).toBeLessThan(2500); // woken, not the 5 s window ending
  });

  it('advances the cursor on ack (204): acked messages never come again', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    await publish(topic, 'one');
    await publish(topic, 'two');
    const first = await receive(topic, sub, 0, 1);
    expect(bodies(first)).toEqual(['one']);
    expect((await ack(topic, sub, handles(first))).status).toBe(204);
    expect(bodies(await receive(topic, sub))).toEqual(['two']);
    await platform.elapse(1100);
    // 'two' was not acked: it comes again after the ack deadline; 'one' does not.
    expect(bodies(await receive(topic, sub))).toEqual(['two']);
  });

  it('does not hand in-flight messages out twice before their deadline, but hands out new ones', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    await publish(topic, 'a');
    expect(bodies(await receive(topic, sub))).toEqual(['a']);
    await publish(topic, 'b');
    expect(bodies(await receive(topic, sub))).toEqual(['b']);
  });

  it('redelivers unacked messages to a receive already waiting when their deadline passes', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    await publish(topic, 'unacked');
    await receive(topic, sub);
    const parked = platform.nextTimer();
    const polling = tracked(receive(topic, sub, 5));
    await parked;
    await platform.elapse(900);
    await expectStillWaiting(polling);
    await platform.elapse(200);
    expect(bodies(await polling.result)).toEqual(['unacked']);
  });

  it('keeps in-flight messages past their deadline while extended, even across a later receive, then delivers them again', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    await publish(topic, 'held');
    const held = await receive(topic, sub);
    expect((await extend(topic, sub, handles(held), 3)).status).toBe(204);
    await platform.elapse(1100);
    // Past the 1 s deadline: still held. A new message is handed out, and its deadline does not cut the extension short.
    await publish(topic, 'later');
    expect(bodies(await receive(topic, sub))).toEqual(['later']);
    await platform.elapse(1100);
    expect((await receive(topic, sub)).status).toBe(204);
    await platform.elapse(1000);
    expect(bodies(await receive(topic, sub))).toEqual(['held', 'later']);
  });

  it('changes nothing when extending a handle already acknowledged, or a subscription that does not exist (204 either way)', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    await publish(topic, 'acked');
    const first = await receive(topic, sub);
    await ack(topic, sub, handles(first));
    await publish(topic, 'pending');
    await receive(topic, sub);
    expect((await extend(topic, sub, handles(first), 60)).status).toBe(204);
    expect((await extend(topic, 'sub-unknown', handles(first), 60)).status).toBe(204);
    await platform.elapse(1100);
    expect(bodies(await receive(topic, sub))).toEqual(['pending']);
  });

  it('removes a subscription on DELETE (204); a second DELETE is 404 and receive is 404', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    expect((await platform.call('DELETE', `/v1/topics/${seg(topic)}/subscriptions/${sub}`)).status).toBe(204);
    expect((await platform.call('DELETE', `/v1/topics/${seg(topic)}/subscriptions/${sub}`)).status).toBe(404);
    const res = await receive(topic, sub);
    expect(res.status).toBe(404);
    expect(res.code).toBe('subscription_not_found');
  });

  it('answers 404 to a receive with an unknown subscription or one of another subject', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    expect((await receive(topic, 'sub-unknown')).status).toBe(404);
    expect((await receive(`${topic}-other`, sub)).status).toBe(404);
  });

  it('has no nack route', async () => {
    const res = await platform.call('POST', '/v1/topics/x/nack', { json: {} });
    expect(res.status).toBe(501);
    expect(res.code).toBe('route_not_implemented');
  });

  it('ends a receive waiting on a subscription that gets deleted', async () => {
    const topic = freshTopic();
    const sub = await subscribe(topic);
    const parked = platform.nextTimer();
    const polling = receive(topic, sub, 5);
    await parked;
    await platform.call('DELETE', `/v1/topics/${seg(topic)}/subscriptions/${sub}`);
    const res = await polling;
    expect(res.status).toBe(204);
    expect(res.ms).toBeLessThan(2500); // woken, not the 5 s window ending
  });
});

describe.concurrent('topic planes (§4.4)', () => {
  it('routes system: true to the platform plane, apart from deployment traffic of the same subject', async () => {
    const subject = 'config/changed';
    const platformSub = await subscribe(subject, { system: true });
    const deploymentSub = await subscribe(subject, { deploymentId: 'orders' });
    await publish(subject, 'platform-wide', { system: true, deploymentId: 'orders' });
    await publish(subject, 'deployment-only', { deploymentId: 'orders' });
    expect(bodies(await receive(subject, platformSub))).toEqual(['platform-wide']);
    expect(bodies(await receive(subject, deploymentSub))).toEqual(['deployment-only']);
  });

  it('keeps deployments\' own topics apart', async () => {
    const subject = 'cache/flush';
    const a = await subscribe(subject, { deploymentId: 'a' });
    await publish(subject, 'from b', { deploymentId: 'b' });
    expect((await receive(subject, a)).status).toBe(204);
  });
});

describe.concurrent('subscription expiry', () => {
  it('expires a subscription idle beyond topics.subscriptionIdleSeconds: receive is then 404', async () => {
    const short = await startTestPlatform({ manualClock: true, features: { topics: { subscriptionIdleSeconds: 1 } } });
    try {
      const sub = await subscribe('idle', {}, short);
      expect((await receive('idle', sub, 0, 1, short)).status).toBe(204);
      await short.elapse(1300);
      const res = await receive('idle', sub, 0, 1, short);
      expect(res.status).toBe(404);
      expect(res.message).toContain('expired after 1 s');
    } finally {
      await short.close();
    }
  });

  it('keeps a subscription alive while a receive waits on it', async () => {
    const short = await startTestPlatform({ manualClock: true, features: { topics: { subscriptionIdleSeconds: 1 } } });
    try {
      const sub = await subscribe('busy', {}, short);
      const parked = short.nextTimer();
      const polling = receive('busy', sub, 1.5, 1, short);
      await parked;
      await short.elapse(1500);
      expect((await polling).status).toBe(204);
      expect((await receive('busy', sub, 0, 1, short)).status).toBe(204);
    } finally {
      await short.close();
    }
  });
});
