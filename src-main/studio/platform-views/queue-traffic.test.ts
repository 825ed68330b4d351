import { describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../../platform/index.ts';
import { QueueTraffic } from './queue-traffic.ts';
import { RunLinks } from './run-links.ts';

const limits = { minutes: 10, maxEvents: 1_000 };

type Publish = Extract<PlatformEvent, { type: 'queue.publish' }>;

/** Feeds events as the platform emits them; a publish carries the headers given for its message id. */
function traffic(headers: Record<string, Record<string, string>> = {}) {
  const links = new RunLinks();
  const q = new QueueTraffic({ limits, snapshotLimits: limits, links });
  const feed = (e: Exclude<PlatformEvent, Publish> | Omit<Publish, 'headers'>) =>
    q.handle((e.type === 'queue.publish' ? { ...e, headers: headers[e.messageId] ?? {} } : e) as Parameters<QueueTraffic['handle']>[0]);
  return { q, links, feed };
}

describe('queue traffic', () => {
  it('tells a redelivery after a missed ack deadline from one after a nack delay', () => {
    const { q, feed } = traffic();
    feed({ type: 'queue.publish', at: 1, subject: 's', messageId: 'm', consumerGroups: ['g'], body: {} });
    feed({ type: 'queue.deliver', at: 2, subject: 's', consumerGroup: 'g', messageId: 'm', deliveryCount: 1 });
    feed({ type: 'queue.redeliver', at: 30_002, subject: 's', consumerGroup: 'g', messageId: 'm', deliveryCount: 2 });
    feed({ type: 'queue.nack', at: 30_010, subject: 's', consumerGroup: 'g', messageId: 'm', delaySeconds: 5 });
    feed({ type: 'queue.redeliver', at: 35_010, subject: 's', consumerGroup: 'g', messageId: 'm', deliveryCount: 3 });
    const timeline = q.view({ subject: 's' }, () => [], 40_000).timeline;
    expect(timeline.filter((e) => e.action === 'redeliver').map((e) => e.redelivery)).toEqual(['after ack deadline', 'after nack delay']);
  });

  it('pairs a reply with the request it answers', () => {
    const { q, feed } = traffic({ r1: { 'x-correlation-id': 'c-1' } });
    feed({ type: 'queue.publish', at: 1, subject: 'quote', messageId: 'r1', consumerGroups: ['pricing'], body: { sku: 'a' }, replyTo: 'reply-1' });
    feed({ type: 'queue.reply', at: 5, subject: 'quote', replyTo: 'reply-1', outcome: 'replied' });
    const [request, reply] = q.view({ subject: 'quote' }, () => [], 10).timeline;
    expect(request).toMatchObject({ action: 'request', replyTo: 'reply-1', correlationId: 'c-1' });
    expect(reply).toMatchObject({ action: 'reply', outcome: 'replied', requestMessageId: 'r1', correlationId: 'c-1' });
  });

  it('counts messages published before any consumer group as the first group’s', () => {
    const { q, feed } = traffic();
    feed({ type: 'queue.publish', at: 1, subject: 's', messageId: 'm', consumerGroups: [], body: 1 });
    feed({ type: 'queue.deliver', at: 2, subject: 's', consumerGroup: 'late', messageId: 'm', deliveryCount: 1 });
    expect(q.stats([])).toEqual([{ subject: 's', group: 'late', published: 1, delivered: 1, redelivered: 0, acked: 0, nacked: 0, waiting: 0, inFlight: 0, delayed: 0 }]);
  });

  it('links deliveries to the runs that started after them and settlements to the runs that ended before', () => {
    const { q, links, feed } = traffic({ m: { 'x-correlation-id': 'c' } });
    const run = (runId: string, startedAt: number, durationMs: number, outcome: 'completed' | 'failed') =>
      links.record('worker', { kind: 'run', flow: 'work', correlationId: 'c', runId, startedAt, durationMs, outcome });
    feed({ type: 'queue.publish', at: 10, subject: 's', messageId: 'm', consumerGroups: ['worker'], body: {} });
    feed({ type: 'queue.deliver', at: 11, subject: 's', consumerGroup: 'worker', messageId: 'm', deliveryCount: 1 });
    run('r1', 12, 3, 'failed');
    feed({ type: 'queue.nack', at: 16, subject: 's', consumerGroup: 'worker', messageId: 'm', delaySeconds: 1 });
    feed({ type: 'queue.redeliver', at: 1_016, subject: 's', consumerGroup: 'worker', messageId: 'm', deliveryCount: 2 });
    run('r2', 1_017, 2, 'completed');
    feed({ type: 'queue.ack', at: 1_020, subject: 's', consumerGroup: 'worker', messageId: 'm' });
    const runs = q.view({ subject: 's' }, () => [], 2_000).timeline.map((e) => [e.action, e.run?.runId]);
    expect(runs).toEqual([
      ['publish', undefined],
      ['deliver', 'r1'],
      ['nack', 'r1'],
      ['redeliver', 'r2'],
      ['ack', 'r2'],
    ]);
  });
});
