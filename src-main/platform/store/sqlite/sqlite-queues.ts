import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import { parseHandle, type Published, type QueueDelivery, type QueueStore, type SettledDelivery } from '../queue-store.ts';
import { GroupCommit } from './group-commit.ts';
import type { Db } from './sqlite-database.ts';

/** Consumer group holding messages published while no group had ever received on the subject. */
const UNCLAIMED = '';

/**
 * Queue messages in the SQLite file: one row per message per consumer group, so every group sees
 * every message and, inside a group, each delivery goes to one receiver. A delivered row stays
 * with a deadline (`visible_at`) and a fresh receipt; an ack deletes it, a nack or the deadline
 * makes it visible again. The handle carries the receipt, so a handle from an earlier delivery
 * can never settle a later one. Publishes share a WAL commit with the other writes of their turn
 * (group commit); a group added later starts with messages published after it.
 */
export class SqliteQueues implements QueueStore {
  private readonly groups = new Map<string, string[]>();
  private readonly insert: Statement<[string, string, string, string, string | null, string | null, number, number]>;
  private readonly insertGroup: Statement<[string, string, number]>;
  private readonly adoptUnclaimed: Statement<[string, string]>;
  private readonly claimStmt: Statement<{ subject: string; grp: string; now: number; deadline: number; limit: number }>;
  private readonly ackStmt: Statement<[number, string, string, number]>;
  private readonly nackStmt: Statement<[number, number, string, string, number]>;
  private readonly nextVisible: Statement<[string, string, number]>;
  private readonly dropRequestStmt: Statement<[string]>;

  /** Creates the group (taking over messages no group has claimed) in its own transaction. */
  readonly addGroup: (subject: string, group: string) => void;
  private readonly ackTx: (subject: string, handles: string[]) => SettledDelivery[];
  private readonly nackTx: (subject: string, handles: string[], delayMs: number) => SettledDelivery[];
  private readonly extendTx: (subject: string, handles: string[], deadlineMs: number) => number;
  private readonly extendStmt: Statement<[number, number, string, string, number]>;
  private readonly group: GroupCommit;

  constructor(
    db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.group = new GroupCommit(db);
    // A pending request died with the process that held it; its message must not be delivered.
    db.prepare('DELETE FROM queue_items WHERE reply_to IS NOT NULL').run();
    for (const row of db.prepare('SELECT subject, grp FROM queue_groups ORDER BY created_at').all() as Array<{ subject: string; grp: string }>) {
      this.groupList(row.subject).push(row.grp);
    }
    this.insert = db.prepare(
      `INSERT INTO queue_items (message_id, subject, grp, body, headers, reply_to, published_at, visible_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertGroup = db.prepare('INSERT OR IGNORE INTO queue_groups (subject, grp, created_at) VALUES (?, ?, ?)');
    this.adoptUnclaimed = db.prepare(`UPDATE queue_items SET grp = ? WHERE subject = ? AND grp = '${UNCLAIMED}'`);
    this.claimStmt = db.prepare(
      `UPDATE queue_items SET visible_at = @deadline, delivery_count = delivery_count + 1, receipt = lower(hex(randomblob(8)))
       WHERE id IN (SELECT id FROM queue_items WHERE subject = @subject AND grp = @grp AND visible_at <= @now ORDER BY visible_at, id LIMIT @limit)
       RETURNING id, message_id AS messageId, grp AS "group", body, headers, reply_to AS replyTo, published_at AS publishedAt,
         delivery_count AS deliveryCount, receipt`,
    );
    this.ackStmt = db.prepare(
      'DELETE FROM queue_items WHERE id = ? AND subject = ? AND receipt = ? AND visible_at > ? RETURNING grp AS "group", message_id AS messageId',
    );
    this.nackStmt = db.prepare(
      `UPDATE queue_items SET visible_at = ?, receipt = NULL WHERE id = ? AND subject = ? AND receipt = ? AND visible_at > ?
       RETURNING grp AS "group", message_id AS messageId`,
    );
    this.extendStmt = db.prepare('UPDATE queue_items SET visible_at = ? WHERE id = ? AND subject = ? AND receipt = ? AND visible_at > ? RETURNING id');
    this.nextVisible = db.prepare('SELECT MIN(visible_at) FROM queue_items WHERE subject = ? AND grp = ? AND visible_at > ?').pluck();
    this.dropRequestStmt = db.prepare('DELETE FROM queue_items WHERE reply_to = ?');

    this.addGroup = db.transaction((subject: string, group: string) => {
      const groups = this.groupList(subject);
      if (groups.includes(group)) return;
      this.insertGroup.run(subject, group, this.clock.now());
      if (groups.length === 0) this.adoptUnclaimed.run(group, subject);
      groups.push(group);
    });
    this.ackTx = db.transaction((subject: string, handles: string[]) => this.settle(handles, (id, receipt) => this.ackStmt.get(id, subject, receipt, this.clock.now())));
    this.extendTx = db.transaction((subject: string, handles: string[], deadlineMs: number) => {
      const now = this.clock.now();
      return this.settle(handles, (id, receipt) => this.extendStmt.get(now + deadlineMs, id, subject, receipt, now)).length;
    });
    this.nackTx = db.transaction((subject: string, handles: string[], delayMs: number) => {
      const now = this.clock.now();
      return this.settle(handles, (id, receipt) => this.nackStmt.get(now + delayMs, id, subject, receipt, now));
    });
  }

  /** Resolves once committed (group commit), so a publisher answered after it holds a durable message. */
  publish(subject: string, body: string, headers: string | null, replyTo?: string): Promise<Published> {
    return this.group.run(() => {
      const messageId = randomUUID();
      const now = this.clock.now();
      const groups = this.groupList(subject);
      for (const grp of groups.length > 0 ? groups : [UNCLAIMED]) this.insert.run(messageId, subject, grp, body, headers, replyTo ?? null, now, now);
      return { messageId, groups: [...groups] };
    });
  }

  async joinGroup(subject: string, group: string): Promise<void> {
    if (!this.hasGroup(subject, group)) this.addGroup(subject, group);
  }

  /** One process holds every receive, so the dispatcher's own record is the whole truth. */
  async lastReceiveAt(): Promise<undefined> {
    return undefined;
  }

  async ack(subject: string, handles: string[]): Promise<SettledDelivery[]> {
    return this.ackTx(subject, handles);
  }

  async nack(subject: string, handles: string[], delayMs: number): Promise<SettledDelivery[]> {
    return this.nackTx(subject, handles, delayMs);
  }

  async extend(subject: string, handles: string[], deadlineMs: number): Promise<number> {
    return this.extendTx(subject, handles, deadlineMs);
  }

  hasGroup(subject: string, group: string): boolean {
    return this.groups.get(subject)?.includes(group) ?? false;
  }

  async groupsOf(subject: string): Promise<readonly string[]> {
    return this.groups.get(subject) ?? [];
  }

  async claim(subject: string, group: string, limit: number, ackDeadlineMs: number): Promise<QueueDelivery[]> {
    const now = this.clock.now();
    const rows = this.claimStmt.all({ subject, grp: group, now, deadline: now + ackDeadlineMs, limit }) as Array<
      Omit<QueueDelivery, 'handle'> & { receipt: string }
    >;
    if (rows.length > 1) rows.sort((a, b) => a.id - b.id);
    return rows.map(({ receipt, ...row }) => ({ ...row, handle: `${row.id}.${receipt}` }));
  }

  async nextVisibleAt(subject: string, group: string): Promise<number | undefined> {
    return (this.nextVisible.get(subject, group, this.clock.now()) as number | null) ?? undefined;
  }

  async dropRequest(replyTo: string): Promise<void> {
    this.dropRequestStmt.run(replyTo);
  }

  private settle(handles: string[], apply: (id: number, receipt: string) => unknown): SettledDelivery[] {
    const settled: SettledDelivery[] = [];
    for (const handle of handles) {
      const parsed = parseHandle(handle);
      const row = parsed && (apply(parsed.id, parsed.receipt) as SettledDelivery | undefined);
      if (row) settled.push(row);
    }
    return settled;
  }

  private groupList(subject: string): string[] {
    let list = this.groups.get(subject);
    if (!list) this.groups.set(subject, (list = []));
    return list;
  }
}
