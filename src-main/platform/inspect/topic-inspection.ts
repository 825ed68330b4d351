import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { TopicRoutes } from '../delegation/topics.ts';
import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import { tooLarge } from '../http/api-error.ts';
import { checkName } from '../http/headers-and-names.ts';
import type { InspectionStore } from '../store/inspection-store.ts';
import type { TopicStore } from '../store/topic-store.ts';
import { parseHeaders, previewText, requireName, type StoredText } from './stored-text.ts';

/** A topic subscription's position and liveness, as the platform holds it now. */
export interface SubscriptionState {
  id: string;
  plane: string;
  subject: string;
  /** Id of the last message acknowledged. */
  cursor: number;
  /** Stored messages after the cursor: what it has yet to acknowledge. */
  lag: number;
  /** Messages delivered and not yet acknowledged, within their ack deadline. */
  inFlight: number;
  createdAt: number;
  /** Last receive or ack. */
  lastActiveAt: number;
  /** When it expires unless it receives or acks before; a waiting receive keeps it alive. */
  expiresAt: number;
  /** A receive is waiting on it now. */
  receiving: boolean;
}

export interface TopicStreamCounts {
  plane: string;
  subject: string;
  subscriptions: number;
  /** Messages kept because some subscription has not passed them yet. */
  stored: number;
}

/** A stored topic message with its body as stored (JSON text cut at `PREVIEW_BYTES`), as queue messages are. */
export type StoredTopicMessage = { id: number; publishedAt: number; headers: Record<string, string> } & StoredText;

const PREVIEW_BYTES = 64 * 1024;

/**
 * Read-only views of topic streams and subscriptions for the studio, plus its panel's writes:
 * a test publish and deleting a subscription, done as the topic routes do them (events emitted,
 * waiting receives woken or ended). On either store, through its InspectionStore.
 */
export class TopicInspection {
  constructor(
    private readonly reads: InspectionStore,
    private readonly store: TopicStore,
    private readonly routes: TopicRoutes,
    private readonly events: PlatformEventFeed,
    private readonly features: Features,
    /** The platform's clock: what is in flight, delayed or expired is judged by it. */
    private readonly clock: Clock = systemClock,
  ) {}

  /** Every live subscription with cursor, lag and expiry. One found idle past its limit is expired now, as a sweep would. */
  async subscriptions(now = this.clock.now()): Promise<SubscriptionState[]> {
    const idleMs = this.features.topics.subscriptionIdleSeconds * 1000;
    const out: SubscriptionState[] = [];
    for (const row of await this.reads.topicSubscriptions()) {
      const receiving = this.routes.waiting.has(row.id);
      const sub = await this.store.get(row.id);
      if (!sub) {
        if (this.events.active) this.events.emit({ type: 'topic.expire', at: now, plane: row.plane, subject: row.subject, subscriptionId: row.id });
        continue;
      }
      const inFlight = sub.delivered > sub.cursor && sub.deliveredUntil > now ? await this.reads.topicCount(sub.plane, sub.subject, sub.cursor, sub.delivered) : 0;
      out.push({
        id: sub.id,
        plane: sub.plane,
        subject: sub.subject,
        cursor: sub.cursor,
        lag: await this.reads.topicCount(sub.plane, sub.subject, sub.cursor),
        inFlight,
        createdAt: sub.createdAt,
        lastActiveAt: sub.lastActiveAt,
        expiresAt: (receiving ? now : sub.lastActiveAt) + idleMs,
        receiving,
      });
    }
    return out;
  }

  /** Streams with subscriptions or stored messages. */
  async streams(): Promise<TopicStreamCounts[]> {
    const byKey = new Map<string, TopicStreamCounts>();
    for (const row of await this.reads.topicSubscriptions()) {
      const key = `${row.plane}\0${row.subject}`;
      const entry = byKey.get(key) ?? { plane: row.plane, subject: row.subject, subscriptions: 0, stored: 0 };
      entry.subscriptions++;
      byKey.set(key, entry);
    }
    for (const row of await this.reads.topicStored()) {
      const key = `${row.plane}\0${row.subject}`;
      const entry = byKey.get(key) ?? { plane: row.plane, subject: row.subject, subscriptions: 0, stored: 0 };
      entry.stored = row.stored;
      byKey.set(key, entry);
    }
    return [...byKey.values()];
  }

  /** The newest stored messages of a stream, newest first. */
  async recent(plane: string, subject: string, limit = 50): Promise<StoredTopicMessage[]> {
    const rows = await this.reads.topicRecent(plane, subject, Math.min(Math.max(1, limit), 500), PREVIEW_BYTES);
    return rows.map((r) => ({ id: r.id, publishedAt: r.publishedAt, headers: parseHeaders(r.headers), ...previewText(r.body, r.bodyBytes) }));
  }

  /** Publishes as the publish route does. `plane` is `platform` or `deployment/<id>`. */
  async publish(plane: string, subject: string, body: unknown, headers?: Record<string, string>): Promise<string> {
    checkName(requireName(subject, 'the subject'), 'the subject');
    if (plane !== 'platform' && !plane.startsWith('deployment/')) throw new Error(`plane "${plane}" is neither "platform" nor "deployment/<id>"`);
    const text = JSON.stringify(body ?? null);
    const max = this.features.topics.maxMessageBytes;
    if (Buffer.byteLength(text) > max) throw tooLarge('message_too_large', `the message body is ${Buffer.byteLength(text)} bytes of JSON; topics accept at most ${max}`);
    const stored = headers && Object.keys(headers).length > 0 ? JSON.stringify(headers) : null;
    const id = await this.store.publish(plane, subject, text, stored);
    if (this.events.active) {
      this.events.emit({ type: 'topic.publish', at: this.clock.now(), plane, subject, messageId: String(id), body: JSON.parse(text), headers: parseHeaders(stored) });
    }
    this.routes.wakeStream(plane, subject);
    return String(id);
  }

  /** Deletes a subscription as the DELETE route does; false when it was already gone. */
  async deleteSubscription(subscriptionId: string): Promise<boolean> {
    const existing = await this.store.get(subscriptionId);
    if (!existing) return false;
    await this.store.unsubscribe(subscriptionId);
    this.routes.waiting.endAll(subscriptionId);
    if (this.events.active) {
      this.events.emit({ type: 'topic.unsubscribe', at: this.clock.now(), plane: existing.plane, subject: existing.subject, subscriptionId });
    }
    return true;
  }
}
