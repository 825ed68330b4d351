import { notFound } from '../http/api-error.ts';
import { subscribe, topicAck, topicExtend, topicPublish, topicReceive, unsubscribe } from '../../../shared/platform-api/topics.ts';
import { implement } from '../http/contract-route.ts';
import { sendEmpty, sendJson } from '../http/http-io.ts';
import { checkName } from '../http/headers-and-names.ts';
import type { Route } from '../http/router.ts';
import type { Subscription, TopicMessage } from '../store/topic-store.ts';
import type { PlatformContext } from './platform-context.ts';
import { messageText, topicMessagesJson } from './queue-messages.ts';
import { settleHandles } from './queues.ts';
import { WaitingReceivers } from './waiting-receivers.ts';
import { parseHeaders } from '../inspect/stored-text.ts';

/**
 * The plane a topic lives on: `system: true` routes to the platform plane, anything else to the
 * publishing deployment's own. The subject name is never parsed to decide.
 */
export function topicPlane(body: { system?: boolean; deploymentId?: string }): string {
  return body.system ? 'platform' : `deployment/${body.deploymentId ?? ''}`;
}

/**
 * Topics (§3.4, §4.4): fan-out to every subscription. A subscription starts at the end of the
 * stream, receives with the queue's long-poll semantics, and acks by moving its cursor; there
 * is no nack. Unacked deliveries come again after topics.ackDeadlineSeconds.
 */
export class TopicRoutes {
  readonly waiting: WaitingReceivers<TopicMessage>;
  /** Subscriptions with a receive waiting in this process, by stream: whom a publish wakes. */
  private readonly receivingByStream = new Map<string, Map<string, number>>();

  constructor(
    private readonly p: PlatformContext,
    onError: (err: Error) => void = () => {},
  ) {
    this.waiting = new WaitingReceivers((id) => p.topics.redeliveryAt(id), onError, p.clock);
  }

  /** Wakes this process's receives on a stream (a publish here, or a wake-up from another replica). */
  wakeStream(plane: string, subject: string): void {
    for (const id of this.receivingByStream.get(streamKey(plane, subject))?.keys() ?? []) this.waiting.wake(id);
  }

  /** Expires idle subscriptions (a waiting receive counts as activity) and drops consumed messages. */
  async sweep(): Promise<void> {
    const expired = await this.p.topics.sweep(this.waiting.keys());
    if (this.p.events.active) {
      for (const s of expired) this.p.events.emit({ type: 'topic.expire', at: this.p.clock.now(), plane: s.plane, subject: s.subject, subscriptionId: s.id });
    }
  }

  routes(): Route[] {
    const { topics, events, features } = this.p;
    const t = features.topics;
    const enabled = t.supported;
    const ackDeadlineMs = t.ackDeadlineSeconds * 1000;
    const subscription = async (id: string, subject: string): Promise<Subscription> => {
      const sub = await topics.get(id);
      if (!sub || sub.subject !== subject) {
        throw notFound(
          'subscription_not_found',
          `no subscription ${id} on topic "${subject}": it was deleted, or expired after ${t.subscriptionIdleSeconds} s without a receive or ack; subscribe again`,
        );
      }
      return sub;
    };

    const binding = { capability: 'topics', enabled };
    return [
      implement(topicPublish, binding, async (ctx) => {
        const subject = checkName(ctx.params.subject, 'the subject');
        const body = await ctx.json();
        const message = messageText(body, t.maxMessageBytes, subject);
        const plane = topicPlane(body);
        const id = await topics.publish(plane, subject, message.body, message.headers);
        if (events.active) events.emit({ type: 'topic.publish', at: this.p.clock.now(), plane, subject, messageId: String(id), body: JSON.parse(message.body), headers: parseHeaders(message.headers) });
        this.wakeStream(plane, subject);
        sendJson(ctx.res, 202, `{"messageId":"${id}"}`);
        // The message's JSON plus its headers and plane.
      }, { maxBytes: t.maxMessageBytes + 64 * 1024 }),
      implement(subscribe, binding, async (ctx) => {
        const subject = checkName(ctx.params.subject, 'the subject');
        const plane = topicPlane(await ctx.json());
        const sub = await topics.subscribe(plane, subject);
        if (events.active) events.emit({ type: 'topic.subscribe', at: this.p.clock.now(), plane, subject, subscriptionId: sub.id });
        sendJson(ctx.res, 201, {
          subscriptionId: sub.id,
          subject,
          system: plane === 'platform',
          createdAt: new Date(sub.createdAt).toISOString(),
          idleExpirySeconds: t.subscriptionIdleSeconds,
        });
      }),
      implement(topicReceive, binding, async (ctx) => {
        const body = await ctx.json();
        const sub = await subscription(body.subscriptionId, ctx.params.subject);
        const waitSeconds = Math.min(body.waitSeconds ?? t.pollTimeoutSeconds, t.pollTimeoutSeconds);
        const maxMessages = Math.min(body.maxMessages ?? 1, t.maxBatch);
        await topics.touch(sub.id);
        const delivered = (batch: TopicMessage[]): TopicMessage[] => {
          if (events.active && batch.length > 0) {
            events.emit({ type: 'topic.deliver', at: this.p.clock.now(), plane: sub.plane, subject: sub.subject, subscriptionId: sub.id, messageIds: batch.map((m) => String(m.id)) });
          }
          return batch;
        };
        const stream = streamKey(sub.plane, sub.subject);
        this.track(stream, sub.id, +1);
        const pending = this.waiting.receive(sub.id, waitSeconds * 1000, async () => delivered(await topics.take(sub.id, maxMessages, ackDeadlineMs)));
        ctx.res.once('close', pending.cancel);
        let batch: TopicMessage[];
        try {
          batch = await pending.result;
        } finally {
          this.track(stream, sub.id, -1);
        }
        await topics.touch(sub.id);
        if (batch.length === 0) sendEmpty(ctx.res, 204);
        else sendJson(ctx.res, 200, topicMessagesJson(batch));
      }),
      implement(topicAck, binding, async (ctx) => {
        const body = await ctx.json();
        const handles = settleHandles(body);
        const sub = await topics.get(body.subscriptionId);
        // Like a queue ack, an ack that settles nothing (unknown subscription or handle) is still 204.
        if (sub && sub.subject === ctx.params.subject) {
          const moved = await topics.ack(sub.id, handles.map(Number).filter(Number.isSafeInteger));
          if (events.active && moved && moved.cursor !== moved.before) {
            events.emit({ type: 'topic.ack', at: this.p.clock.now(), plane: sub.plane, subject: sub.subject, subscriptionId: sub.id, cursor: String(moved.cursor) });
          }
        }
        sendEmpty(ctx.res, 204);
      }),
      implement(topicExtend, binding, async (ctx) => {
        const body = await ctx.json();
        const handles = settleHandles(body);
        const sub = await topics.get(body.subscriptionId);
        // Like ack: an unknown subscription or a handle no longer in flight changes nothing, still 204.
        if (sub && sub.subject === ctx.params.subject) {
          await topics.extend(sub.id, handles.map(Number).filter(Number.isSafeInteger), Math.min(body.seconds, MAX_EXTEND_SECONDS) * 1000);
        }
        sendEmpty(ctx.res, 204);
      }),
      implement(unsubscribe, binding, async (ctx) => {
        const { subject, subscriptionId } = ctx.params;
        const existing = await topics.get(subscriptionId);
        if (!existing || existing.subject !== subject) throw notFound('subscription_not_found', `no subscription ${subscriptionId} on topic "${subject}" (already removed or expired)`);
        await topics.unsubscribe(subscriptionId);
        // A receive still waiting on the removed subscription ends now, empty.
        this.waiting.endAll(subscriptionId);
        if (events.active) events.emit({ type: 'topic.unsubscribe', at: this.p.clock.now(), plane: existing.plane, subject, subscriptionId });
        sendEmpty(ctx.res, 204);
      }),
    ];
  }

  private track(stream: string, id: string, delta: number): void {
    let ids = this.receivingByStream.get(stream);
    if (!ids) this.receivingByStream.set(stream, (ids = new Map()));
    const n = (ids.get(id) ?? 0) + delta;
    if (n > 0) ids.set(id, n);
    else ids.delete(id);
    if (ids.size === 0) this.receivingByStream.delete(stream);
  }
}

/** The route's own ceiling (its schema's maximum), as for a queue's ack deadline. */
const MAX_EXTEND_SECONDS = 12 * 3600;

const streamKey = (plane: string, subject: string): string => `${plane}\0${subject}`;
