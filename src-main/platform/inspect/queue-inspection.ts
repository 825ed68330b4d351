import { systemClock, type Clock } from '../../../shared/clock.ts';
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { QueueGroupStats, WaitingMessage } from '../../../shared/platform-views.ts';
import type { QueueDispatch } from '../delegation/queue-dispatch.ts';
import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import { badRequest, tooLarge } from '../http/api-error.ts';
import { checkName } from '../http/request-fields.ts';
import type { Db } from '../store/database.ts';
import type { QueueStore } from '../store/queue-store.ts';
import { parseHeaders, previewText, requireName, type StoredText } from './stored-text.ts';

/**
 * What a consumer group has on a subject right now, as stored: the stored part of the studio's
 * QueueGroupStats (which adds counters since it started). `group` '' holds messages no group has
 * claimed yet.
 */
export type QueueGroupCounts = Pick<QueueGroupStats, 'subject' | 'group' | 'waiting' | 'inFlight' | 'delayed'>;

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

interface MessageRow {
  messageId: string;
  grp: string;
  body: string;
  bodyBytes: number;
  headers: string | null;
  replyTo: string | null;
  publishedAt: number;
  visibleAt: number;
  deliveryCount: number;
  claimed: number;
}

const PREVIEW_BYTES = 64 * 1024;

/**
 * Read-only views of the stored queues for the studio, plus the writes its panel offers: a test
 * publish (through the dispatch the publish route uses, so waiting receivers wake) and a purge.
 */
export class QueueInspection {
  private readonly countsStmt: Statement<{ now: number }>;
  private readonly groupsStmt: Statement<[]>;
  private readonly peekStmt: Statement<[string, string, number, number]>;
  private readonly headersStmt: Statement<[number, string]>;
  private readonly purgeGroupStmt: Statement<[string, string]>;
  private readonly purgeAllStmt: Statement<[string]>;
  private readonly insertOne: Statement<[string, string, string, string, string | null, number, number]>;
  private readonly publishToGroup: (subject: string, group: string, body: string, headers: string | null) => string;
  /** Highest queue row id looked at by `publishedHeaders`; the rows of a new publish come after it. */
  private lastRowId: number;

  constructor(
    db: Db,
    private readonly store: QueueStore,
    private readonly dispatch: QueueDispatch,
    private readonly events: PlatformEventFeed,
    private readonly features: Features,
    /** The platform's clock: what is in flight, delayed or expired is judged by it. */
    private readonly clock: Clock = systemClock,
  ) {
    this.countsStmt = db.prepare(
      `SELECT subject, grp AS "group", SUM(visible_at <= @now) AS waiting,
         SUM(visible_at > @now AND receipt IS NOT NULL) AS inFlight, SUM(visible_at > @now AND receipt IS NULL) AS delayed
       FROM queue_items GROUP BY subject, grp`,
    );
    this.groupsStmt = db.prepare('SELECT subject, grp AS "group" FROM queue_groups');
    this.peekStmt = db.prepare(
      `SELECT message_id AS messageId, grp, substr(body, 1, ${PREVIEW_BYTES}) AS body, length(CAST(body AS BLOB)) AS bodyBytes, headers,
         reply_to AS replyTo, published_at AS publishedAt, visible_at AS visibleAt, delivery_count AS deliveryCount, receipt IS NOT NULL AS claimed
       FROM queue_items WHERE subject = ? AND grp = ? ORDER BY visible_at, id LIMIT ? OFFSET ?`,
    );
    this.headersStmt = db.prepare('SELECT id, headers FROM queue_items WHERE id > ? AND message_id = ? ORDER BY id LIMIT 1');
    this.purgeGroupStmt = db.prepare('DELETE FROM queue_items WHERE subject = ? AND grp = ?');
    this.purgeAllStmt = db.prepare('DELETE FROM queue_items WHERE subject = ?');
    this.insertOne = db.prepare(
      'INSERT INTO queue_items (message_id, subject, grp, body, headers, published_at, visible_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.publishToGroup = db.transaction((subject: string, group: string, body: string, headers: string | null) => {
      const messageId = randomUUID();
      const now = this.clock.now();
      this.insertOne.run(messageId, subject, group, body, headers, now, now);
      return messageId;
    });
    this.lastRowId = (db.prepare('SELECT MAX(id) FROM queue_items').pluck().get() as number | null) ?? 0;
  }

  /** Every subject and consumer group with its stored messages by state; groups with none are listed with zeros. */
  counts(now = this.clock.now()): QueueGroupCounts[] {
    const rows = this.countsStmt.all({ now }) as QueueGroupCounts[];
    const seen = new Set(rows.map((r) => `${r.subject}\0${r.group}`));
    for (const g of this.groupsStmt.all() as Array<{ subject: string; group: string }>) {
      if (!seen.has(`${g.subject}\0${g.group}`)) rows.push({ ...g, waiting: 0, inFlight: 0, delayed: 0 });
    }
    return rows;
  }

  /** The group's stored messages in the order it will receive them (in-flight ones by deadline). */
  peek(subject: string, group: string, limit = 50, offset = 0, now = this.clock.now()): StoredQueueMessage[] {
    const rows = this.peekStmt.all(subject, group, Math.min(Math.max(1, limit), 500), Math.max(0, offset)) as MessageRow[];
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
   * The headers a message was published with. Meant for a `queue.publish` listener: the feed
   * calls it in the same turn as the insert, so the rows are there and come after every row
   * looked at before; undefined when they are gone (taken by a fast consumer and acked).
   */
  publishedHeaders(messageId: string): Record<string, string> | undefined {
    const row = this.headersStmt.get(this.lastRowId, messageId) as { id: number; headers: string | null } | undefined;
    if (!row) return undefined;
    this.lastRowId = row.id;
    return parseHeaders(row.headers);
  }

  /**
   * Publishes a JSON body as the publish route does: every consumer group gets it and waiting
   * receivers wake. With `consumerGroup`, only that group gets it (the group is created first, as
   * a first receive would).
   */
  publish(subject: string, body: unknown, options: QueuePublishOptions = {}): { messageId: string; groups: string[] } {
    checkName(requireName(subject, 'the subject'), 'the subject');
    const text = JSON.stringify(body ?? null);
    const max = this.features.queues.maxMessageBytes;
    if (Buffer.byteLength(text) > max) throw tooLarge('message_too_large', `the message body is ${Buffer.byteLength(text)} bytes of JSON; queues accept at most ${max}`);
    const headers = options.headers && Object.keys(options.headers).length > 0 ? JSON.stringify(checkHeaders(options.headers)) : null;
    const group = options.consumerGroup;
    if (group === undefined || group === '') {
      const messageId = this.dispatch.announce(subject, this.store.publish(subject, text, headers), text);
      return { messageId, groups: [...this.store.groupsOf(subject)] };
    }
    checkName(group, 'the consumer group');
    if (!this.store.hasGroup(subject, group)) this.store.addGroup(subject, group);
    const messageId = this.publishToGroup(subject, group, text, headers);
    if (this.events.active) this.events.emit({ type: 'queue.publish', at: this.clock.now(), subject, messageId, consumerGroups: [group], body: JSON.parse(text) });
    // Same key as QueueDispatch's waiting receivers: subject and group joined by NUL.
    this.dispatch.waiting.wake(`${subject}\0${group}`);
    return { messageId, groups: [group] };
  }

  /** Deletes every stored message of the subject (or of one group), in flight ones included; returns how many rows went. */
  purge(subject: string, group?: string): number {
    return group === undefined ? this.purgeAllStmt.run(subject).changes : this.purgeGroupStmt.run(subject, group).changes;
  }
}

function checkHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [k, v] of Object.entries(headers)) {
    if (typeof v !== 'string') throw badRequest('invalid_field', `header "${k}" must be a string, got ${JSON.stringify(v)}`);
  }
  return headers;
}
