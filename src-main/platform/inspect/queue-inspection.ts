import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { WaitingMessage } from '../../../shared/platform-views.ts';
import type { QueueDispatch } from '../delegation/queue-dispatch.ts';
import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import { badRequest, tooLarge } from '../http/api-error.ts';
import { checkName } from '../http/headers-and-names.ts';
import type { InspectionStore, QueueGroupCounts } from '../store/inspection-store.ts';
import type { QueueStore } from '../store/queue-store.ts';
import { parseHeaders, previewText, requireName, type StoredText } from './stored-text.ts';

export type { QueueGroupCounts } from '../store/inspection-store.ts';

export type StoredQueueState = WaitingMessage['state'];

/**
 * A message as it waits in one consumer group: the studio's WaitingMessage with its body as
 * stored (JSON text cut at `PREVIEW_BYTES`), before the studio turns it into a preview.
 * `visibleAt` is when it becomes visible again (in flight: its ack deadline; delayed: the end of
 * the nack delay).
 */
export type StoredQueueMessage = Omit<WaitingMessage, 'body'> & StoredText;

export interface QueuePublishOptions {
  headers?: Record<string, string>;
  /** Only this consumer group gets the message (created when it does not exist yet); absent: every group, as a publish does. */
  consumerGroup?: string;
}

const PREVIEW_BYTES = 64 * 1024;

/**
 * Read-only views of the stored queues for the studio, plus the writes its panel offers: a test
 * publish (through the dispatch the publish route uses, so waiting receivers wake) and a purge.
 * On either store (SQLite or PostgreSQL, through the store's InspectionStore).
 */
export class QueueInspection {
  constructor(
    private readonly reads: InspectionStore,
    private readonly queues: QueueStore,
    private readonly dispatch: QueueDispatch,
    private readonly events: PlatformEventFeed,
    private readonly features: Features,
    /** The platform's clock: what is in flight, delayed or expired is judged by it. */
    private readonly clock: Clock = systemClock,
  ) {}

  /** Every subject and consumer group with its stored messages by state; groups with none are listed with zeros. */
  async counts(now = this.clock.now()): Promise<QueueGroupCounts[]> {
    const rows = await this.reads.queueCounts(now);
    const seen = new Set(rows.map((r) => `${r.subject}\0${r.group}`));
    for (const g of await this.reads.queueGroups()) {
      if (!seen.has(`${g.subject}\0${g.group}`)) rows.push({ ...g, waiting: 0, inFlight: 0, delayed: 0 });
    }
    return rows;
  }

  /** The group's stored messages in the order it will receive them (in-flight ones by deadline). */
  async peek(subject: string, group: string, limit = 50, offset = 0, now = this.clock.now()): Promise<StoredQueueMessage[]> {
    const rows = await this.reads.queueMessages(subject, group, Math.min(Math.max(1, limit), 500), Math.max(0, offset), PREVIEW_BYTES);
    return rows.map((r) => {
      const message: StoredQueueMessage = {
        messageId: r.messageId,
        group: r.grp,
        state: r.visibleAt <= now ? 'waiting' : r.claimed ? 'in flight' : 'delayed',
        publishedAt: r.publishedAt,
        visibleAt: r.visibleAt,
        deliveryCount: r.deliveryCount,
        headers: parseHeaders(r.headers),
        ...previewText(r.body, r.bodyBytes),
      };
      if (r.replyTo) message.replyTo = r.replyTo;
      return message;
    });
  }

  /**
   * Publishes a JSON body as the publish route does: every consumer group gets it and waiting
   * receivers wake. With `consumerGroup`, only that group gets it (the group is created first, as
   * a first receive would).
   */
  async publish(subject: string, body: unknown, options: QueuePublishOptions = {}): Promise<{ messageId: string; groups: string[] }> {
    checkName(requireName(subject, 'the subject'), 'the subject');
    const text = JSON.stringify(body ?? null);
    const max = this.features.queues.maxMessageBytes;
    if (Buffer.byteLength(text) > max) throw tooLarge('message_too_large', `the message body is ${Buffer.byteLength(text)} bytes of JSON; queues accept at most ${max}`);
    const headers = options.headers && Object.keys(options.headers).length > 0 ? JSON.stringify(checkHeaders(options.headers)) : null;
    const group = options.consumerGroup;
    if (group === undefined || group === '') {
      const published = await this.queues.publish(subject, text, headers);
      const messageId = this.dispatch.announce(subject, published, text, headers);
      return { messageId, groups: [...published.groups] };
    }
    checkName(group, 'the consumer group');
    await this.reads.addQueueGroup(subject, group);
    const messageId = await this.reads.publishToGroup(subject, group, text, headers);
    if (this.events.active) {
      this.events.emit({ type: 'queue.publish', at: this.clock.now(), subject, messageId, consumerGroups: [group], body: JSON.parse(text), headers: parseHeaders(headers) });
    }
    this.dispatch.wakeGroup(subject, group);
    return { messageId, groups: [group] };
  }

  /** Deletes every stored message of the subject (or of one group), in flight ones included; returns how many rows went. */
  async purge(subject: string, group?: string): Promise<number> {
    return this.reads.purgeQueue(subject, group);
  }
}

function checkHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [k, v] of Object.entries(headers)) {
    if (typeof v !== 'string') throw badRequest('invalid_field', `header "${k}" must be a string, got ${JSON.stringify(v)}`);
  }
  return headers;
}
