import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ manualClock: true });
});
afterAll(() => platform.close());

interface Delivered {
  handle: string;
  body: unknown;
  replyTo?: string;
}
const receive = (subject: string, waitSeconds = 0) =>
  platform.call('POST', `/v1/queues/${subject}/receive`, { json: { consumerGroup: 'svc', waitSeconds } });
const request = (subject: string, body: unknown, timeoutSeconds: number) =>
  platform.call('POST', `/v1/queues/${subject}/request`, { json: { body, timeoutSeconds } });

// Reply timeouts pass on the server's clock: moved, not waited for, on SQLite (elapse); the tests
// run one after another so one test's move does not cut another's wait short.
describe('request/reply on a queue (§4.3 rule 2)', () => {
  it('answers 503 at once when nobody consumes the subject', async () => {
    const res = await request('nobody-home', { q: 1 }, 5);
    expect(res.status).toBe(503);
    expect(res.code).toBe('no_consumers');
    expect(res.ms).toBeLessThan(2500); // not the 5 s timeout: nobody was asked
  });

  it('delivers the request with replyTo and answers the requester with the reply body', async () => {
    const parked = platform.nextTimer();
    const consumer = (async () => {
      const res = await receive('prices', 5);
      const [m] = (res.json as { messages: Delivered[] }).messages;
      expect(m.body).toEqual({ sku: 'A-1' });
      expect(m.replyTo).toBeTruthy();
      const reply = await platform.call('POST', '/v1/queues/reply', { json: { replyTo: m.replyTo, body: { price: 9.5 }, headers: { currency: 'EUR' } } });
      expect(reply.status).toBe(204);
      await platform.call('POST', '/v1/queues/prices/ack', { json: { handles: [m.handle] } });
    })();
    await parked; // the consumer is polling
    const res = await request('prices', { sku: 'A-1' }, 5);
    await consumer;
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ body: { price: 9.5 }, headers: { currency: 'EUR' } });
  });

  it('answers 504 when no reply comes within timeoutSeconds, and withdraws the request', async () => {
    await receive('slow-service'); // someone consumed recently
    const parked = platform.nextTimer();
    let answered = false;
    const requesting = request('slow-service', 'anyone?', 1).finally(() => (answered = true));
    await parked;
    await platform.elapse(900);
    if (platform.clock) {
      await new Promise((r) => setTimeout(r, 50)); // loopback time for an early answer to show
      expect(answered).toBe(false);
    }
    await platform.elapse(100);
    const res = await requesting;
    expect(res.status).toBe(504);
    expect(res.code).toBe('reply_timeout');
    // Nobody waits for an answer any more: the message is gone from the queue.
    expect((await receive('slow-service')).status).toBe(204);
  });

  it('answers 404 to a reply for a request that already ended', async () => {
    await receive('late');
    const requesting = request('late', 'q', 1);
    const [m] = ((await receive('late', 2)).json as { messages: Delivered[] }).messages;
    await platform.elapse(1000);
    expect((await requesting).status).toBe(504);
    const late = await platform.call('POST', '/v1/queues/reply', { json: { replyTo: m.replyTo, body: 'too late' } });
    expect(late.status).toBe(404);
    expect(late.code).toBe('request_not_found');
  });

  it('refuses a reply without replyTo with 400', async () => {
    expect((await platform.call('POST', '/v1/queues/reply', { json: { body: 1 } })).status).toBe(400);
  });
});
