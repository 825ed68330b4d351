import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformEventFeed, type PlatformEvent } from './events.ts';
import { startTestPlatform, type TestPlatform } from './testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

describe('the live event feed', () => {
  it('reports kv writes, lease changes, queue and topic traffic, traces and logs', async () => {
    const seen: PlatformEvent[] = [];
    const stop = platform.server.events.subscribe((e) => seen.push(e));
    const { call } = platform;
    await call('PUT', '/v1/kv/user/entry?key=k', { body: 'v' });
    await call('DELETE', '/v1/kv/user/entry?key=k');
    const lease = (await call('POST', '/v1/leases/acquire', { json: { name: 'n', holder: 'h' } })).json as { leaseId: string };
    await call('POST', `/v1/leases/${lease.leaseId}/renew`);
    await call('POST', `/v1/leases/${lease.leaseId}/release`);
    await call('POST', '/v1/queues/q/receive', { json: { consumerGroup: 'g', waitSeconds: 0 } });
    await call('POST', '/v1/queues/q/publish', { json: { body: { n: 1 } } });
    const first = ((await call('POST', '/v1/queues/q/receive', { json: { consumerGroup: 'g', waitSeconds: 0 } })).json as { messages: Array<{ handle: string }> }).messages[0];
    await call('POST', '/v1/queues/q/nack', { json: { handles: [first.handle] } });
    const again = ((await call('POST', '/v1/queues/q/receive', { json: { consumerGroup: 'g', waitSeconds: 0 } })).json as { messages: Array<{ handle: string }> }).messages[0];
    await call('POST', '/v1/queues/q/ack', { json: { handles: [again.handle] } });
    const sub = ((await call('POST', '/v1/topics/t/subscriptions', { json: {} })).json as { subscriptionId: string }).subscriptionId;
    await call('POST', '/v1/topics/t/publish', { json: { body: 'hello' } });
    const topicMessage = ((await call('POST', '/v1/topics/t/receive', { json: { subscriptionId: sub, waitSeconds: 0 } })).json as { messages: Array<{ handle: string }> }).messages[0];
    await call('POST', '/v1/topics/t/ack', { json: { subscriptionId: sub, handles: [topicMessage.handle] } });
    await call('DELETE', `/v1/topics/t/subscriptions/${sub}`);
    await call('POST', '/v1/traces', { json: [{ kind: 'run', flow: 'f', correlationId: 'c', runId: 'r', startedAt: 0, durationMs: 1, outcome: 'completed' }] });
    await call('POST', '/v1/logs', { json: [{ msg: 'm' }] });
    stop();

    expect(seen.map((e) => e.type)).toEqual([
      'kv.put',
      'kv.delete',
      'lease.grant',
      'lease.renew',
      'lease.release',
      'queue.publish',
      'queue.deliver',
      'queue.nack',
      'queue.redeliver',
      'queue.ack',
      'topic.subscribe',
      'topic.publish',
      'topic.deliver',
      'topic.ack',
      'topic.unsubscribe',
      'traces',
      'logs',
    ]);
    expect(seen.find((e) => e.type === 'queue.publish')).toMatchObject({ subject: 'q', consumerGroups: ['g'], body: { n: 1 } });
    expect(seen.find((e) => e.type === 'queue.redeliver')).toMatchObject({ deliveryCount: 2 });
    for (const e of seen) expect(e.at).toBeGreaterThan(Date.now() - 60_000);
  });

  it('leaves trace and log batches out for a listener that does not take telemetry (nothing parsed for it)', async () => {
    const panels: PlatformEvent[] = [];
    const stop = platform.server.events.subscribe((e) => panels.push(e), { telemetry: false });
    await platform.call('POST', '/v1/traces', { json: [{ kind: 'run', flow: 'f', correlationId: 'c', runId: 'r', startedAt: 0, durationMs: 1, outcome: 'completed' }] });
    await platform.server.ingestTelemetry('logs', 1, '[{"msg":"m"}]');
    expect(platform.server.events.telemetryActive).toBe(false);
    await platform.call('PUT', '/v1/kv/user/entry?key=t', { body: 'v' });
    const all: PlatformEvent[] = [];
    const stopAll = platform.server.events.subscribe((e) => all.push(e));
    await platform.server.ingestTelemetry('traces', 2, '[{"flow":"a"},{"flow":"b"}]');
    stop();
    stopAll();
    expect(panels.map((e) => e.type)).toEqual(['kv.put']);
    expect(all).toEqual([{ type: 'traces', at: expect.any(Number), records: [{ flow: 'a' }, { flow: 'b' }] }]);
  });

  it('records the run a KV write or lease call names in X-Flow-Run-Id, and ignores a malformed one', async () => {
    const seen: PlatformEvent[] = [];
    const stop = platform.server.events.subscribe((e) => seen.push(e));
    const { call } = platform;
    const run = { 'x-flow-run-id': 'r2a' };
    expect((await call('PUT', '/v1/kv/user/entry?key=named', { body: 'v', headers: run })).status).toBe(201);
    await call('DELETE', '/v1/kv/user/entry?key=named', { headers: { 'x-flow-run-id': 'x'.repeat(200) } });
    const lease = (await call('POST', '/v1/leases/acquire', { json: { name: 'named', holder: 'h' }, headers: run })).json as { leaseId: string };
    await call('POST', `/v1/leases/${lease.leaseId}/release`, { headers: run });
    stop();
    expect(seen.map((e) => [e.type, 'runId' in e ? e.runId : undefined])).toEqual([
      ['kv.put', 'r2a'],
      ['kv.delete', undefined],
      ['lease.grant', 'r2a'],
      ['lease.release', 'r2a'],
    ]);
  });

  it('never carries KV values, so secrets cannot leak into the feed', async () => {
    const seen: PlatformEvent[] = [];
    const stop = platform.server.events.subscribe((e) => seen.push(e));
    await platform.call('PUT', '/v1/kv/user_secrets/entry?key=api-key', { body: 's3cr3t-value-in-feed' });
    stop();
    expect(seen).toHaveLength(1);
    expect(JSON.stringify(seen)).not.toContain('s3cr3t-value-in-feed');
  });

  it('stops delivering after unsubscribe and is inactive with no listener', async () => {
    const feed = new PlatformEventFeed();
    expect(feed.active).toBe(false);
    const seen: PlatformEvent[] = [];
    const stop = feed.subscribe((e) => seen.push(e));
    expect(feed.active).toBe(true);
    feed.emit({ type: 'logs', at: 1, records: [] });
    stop();
    feed.emit({ type: 'logs', at: 2, records: [] });
    expect(seen.map((e) => e.at)).toEqual([1]);
    expect(feed.active).toBe(false);
  });

  it('keeps serving when a listener throws', async () => {
    const stopBad = platform.server.events.subscribe(() => {
      throw new Error('listener bug');
    });
    const res = await platform.call('PUT', '/v1/kv/user/entry?key=throwing-listener', { body: 'v' });
    stopBad();
    expect(res.status).toBe(201);
  });
});
