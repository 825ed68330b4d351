import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import type { Subscription, TopicMessage, TopicStore } from '../topic-store.ts';
import type { Db } from './sqlite-database.ts';

/**
 * Topic streams in the SQLite file. Ids come from one counter in this process, the file's only
 * writer, so they are visible in order. In-flight state is memory only: after a restart,
 * unacked messages come again. Messages every subscription has passed are deleted by `sweep`.
 */
export class SqliteTopics implements TopicStore {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly byStream = new Map<string, Set<string>>();
  private lastMessageId: number;
  private readonly insert: Statement<[number, string, string, string, string | null, number]>;
  private readonly readStmt: Statement<[string, string, number, number]>;
  private readonly insertSub: Statement<[string, string, string, number, number, number]>;
  private readonly saveCursor: Statement<[number, number, string]>;
  private readonly deleteSub: Statement<[string]>;
  private readonly deleteConsumed: Statement<[]>;

  constructor(
    db: Db,
    /** A subscription with no receive or ack for this long expires. */
    private readonly idleMs: number,
    private readonly clock: Clock = systemClock,
  ) {
    // Ids come from this counter (a publish nobody can read takes one without a row), so it
    // restarts above every id stored and every cursor handed out.
    this.lastMessageId = db
      .prepare(`SELECT MAX(v) FROM (SELECT seq AS v FROM sqlite_sequence WHERE name = 'topic_messages' UNION ALL SELECT MAX(cursor) FROM topic_subscriptions)`)
      .pluck()
      .get() as number ?? 0;
    const now = this.clock.now();
    const rows = db.prepare('SELECT id, plane, subject, cursor, created_at AS createdAt FROM topic_subscriptions').all() as Array<
      Pick<Subscription, 'id' | 'plane' | 'subject' | 'cursor' | 'createdAt'>
    >;
    // The idle clock restarts with the server: the subscriber could not reach it while it was down.
    for (const row of rows) this.track({ ...row, delivered: row.cursor, deliveredUntil: 0, lastActiveAt: now });
    this.insert = db.prepare('INSERT INTO topic_messages (id, plane, subject, body, headers, published_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.readStmt = db.prepare(
      'SELECT id, body, headers, published_at AS publishedAt FROM topic_messages WHERE plane = ? AND subject = ? AND id > ? ORDER BY id LIMIT ?',
    );
    this.insertSub = db.prepare('INSERT INTO topic_subscriptions (id, plane, subject, cursor, created_at, last_active_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.saveCursor = db.prepare('UPDATE topic_subscriptions SET cursor = ?, last_active_at = ? WHERE id = ?');
    this.deleteSub = db.prepare('DELETE FROM topic_subscriptions WHERE id = ?');
    this.deleteConsumed = db.prepare(
      `DELETE FROM topic_messages WHERE id <= COALESCE(
         (SELECT MIN(cursor) FROM topic_subscriptions s WHERE s.plane = topic_messages.plane AND s.subject = topic_messages.subject),
         9223372036854775807)`,
    );
  }

  async publish(plane: string, subject: string, body: string, headers: string | null): Promise<number> {
    const id = ++this.lastMessageId;
    // With no subscription on the stream nobody can ever read the message: new cursors start after it.
    if (this.byStream.has(streamKey(plane, subject))) this.insert.run(id, plane, subject, body, headers, this.clock.now());
    return id;
  }

  async subscribe(plane: string, subject: string): Promise<Subscription> {
    const now = this.clock.now();
    const id = `sub-${randomBytes(12).toString('hex')}`;
    const sub: Subscription = { id, plane, subject, cursor: this.lastMessageId, delivered: this.lastMessageId, deliveredUntil: 0, createdAt: now, lastActiveAt: now };
    this.insertSub.run(id, plane, subject, sub.cursor, now, now);
    this.track(sub);
    return sub;
  }

  async get(id: string): Promise<Subscription | undefined> {
    return this.live(id);
  }

  private live(id: string): Subscription | undefined {
    const sub = this.subscriptions.get(id);
    if (!sub) return undefined;
    if (this.clock.now() - sub.lastActiveAt > this.idleMs) {
      this.remove(sub);
      return undefined;
    }
    return sub;
  }

  async touch(id: string): Promise<void> {
    const sub = this.subscriptions.get(id);
    if (sub) sub.lastActiveAt = this.clock.now();
  }

  async unsubscribe(id: string): Promise<Subscription | undefined> {
    const sub = this.subscriptions.get(id);
    if (sub) this.remove(sub);
    return sub;
  }

  async take(id: string, limit: number, ackDeadlineMs: number): Promise<TopicMessage[]> {
    const sub = this.subscriptions.get(id);
    if (!sub) return [];
    const now = this.clock.now();
    const after = sub.deliveredUntil > now ? sub.delivered : sub.cursor;
    const rows = this.readStmt.all(sub.plane, sub.subject, after, limit) as TopicMessage[];
    if (rows.length > 0) {
      sub.delivered = rows[rows.length - 1].id;
      // An extension (a run paused in a debugger holds its delivery) is never cut short.
      sub.deliveredUntil = Math.max(sub.deliveredUntil, now + ackDeadlineMs);
      sub.lastActiveAt = now;
    }
    return rows;
  }

  async redeliveryAt(id: string): Promise<number | undefined> {
    const sub = this.subscriptions.get(id);
    return sub && sub.delivered > sub.cursor && sub.deliveredUntil > this.clock.now() ? sub.deliveredUntil : undefined;
  }

  async ack(id: string, ids: number[]): Promise<{ before: number; cursor: number } | undefined> {
    const sub = this.live(id);
    if (!sub) return undefined;
    const before = sub.cursor;
    const now = this.clock.now();
    sub.lastActiveAt = now;
    let cursor = sub.cursor;
    for (const id of ids) if (id > cursor && id <= sub.delivered) cursor = id;
    if (cursor !== sub.cursor) {
      sub.cursor = cursor;
      this.saveCursor.run(cursor, now, sub.id);
    }
    return { before, cursor };
  }

  async extend(id: string, ids: number[], deadlineMs: number): Promise<boolean> {
    const sub = this.live(id);
    const now = this.clock.now();
    if (!sub || sub.deliveredUntil <= now || !ids.some((i) => i > sub.cursor && i <= sub.delivered)) return false;
    sub.deliveredUntil = Math.max(sub.deliveredUntil, now + deadlineMs);
    sub.lastActiveAt = now;
    return true;
  }

  async sweep(receiving: ReadonlySet<string>): Promise<Subscription[]> {
    const now = this.clock.now();
    const expired: Subscription[] = [];
    for (const sub of this.subscriptions.values()) {
      if (receiving.has(sub.id)) sub.lastActiveAt = now;
      else if (now - sub.lastActiveAt > this.idleMs) expired.push(sub);
    }
    for (const sub of expired) this.remove(sub);
    this.deleteConsumed.run();
    return expired;
  }

  private track(sub: Subscription): void {
    this.subscriptions.set(sub.id, sub);
    const key = streamKey(sub.plane, sub.subject);
    let ids = this.byStream.get(key);
    if (!ids) this.byStream.set(key, (ids = new Set()));
    ids.add(sub.id);
  }

  private remove(sub: Subscription): void {
    this.subscriptions.delete(sub.id);
    this.deleteSub.run(sub.id);
    const key = streamKey(sub.plane, sub.subject);
    const ids = this.byStream.get(key);
    ids?.delete(sub.id);
    if (ids?.size === 0) this.byStream.delete(key);
  }
}

const streamKey = (plane: string, subject: string): string => `${plane}\0${subject}`;
