import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { parseHandle, type Published, type QueueDelivery, type QueueStore, type ReplyExchange, type SettledDelivery } from '../queue-store.ts';
import { Coalescer } from './coalescer.ts';
import { inTransaction, prepared } from './postgres-connection.ts';
import { WAKE_CHANNEL } from './postgres-wakeups.ts';

/** Handles to settle on one subject, parsed: row ids and the receipts they must carry. */
interface Settle {
  subject: string;
  ids: number[];
  receipts: string[];
}

interface Outgoing {
  subject: string;
  messageId: string;
  body: string;
  headers: string | null;
  replyTo: string | null;
}

/**
 * Queues on PostgreSQL with the SQLite store's model (one row per message per consumer group,
 * a receipt per delivery, `visible_at` as the visibility deadline) made safe for replicas:
 * a receive claims rows with `FOR UPDATE SKIP LOCKED`, so two replicas claiming at once take
 * different messages and never wait on each other; ack and nack match id and receipt while
 * the deadline holds, in one statement. Deadlines are on the database clock.
 *
 * A publish notifies `flow_platform` in its own transaction (delivered on commit), which wakes
 * long polls held by other replicas; the rows stay the only truth.
 */
export class PostgresQueues implements QueueStore {
  readonly replies: ReplyExchange;
  private readonly publishes = new Coalescer<Outgoing, Published>((messages) => this.publishBatch(messages));
  private readonly acks = new Coalescer<Settle, SettledDelivery[]>((asks) => this.ackBatch(asks));

  constructor(
    private readonly pool: pg.Pool,
    /** Names this replica in the wake-ups it sends: its own listener skips them, since it woke its receivers itself. */
    private readonly origin: string,
  ) {
    this.replies = new PostgresReplies(pool);
  }

  publish(subject: string, body: string, headers: string | null, replyTo?: string): Promise<Published> {
    return this.publishes.submit({ subject, messageId: randomUUID(), body, headers, replyTo: replyTo ?? null });
  }

  /**
   * Publishes that arrive together in one statement (group commit): a row per message per
   * consumer group the subject has when it runs ('' when it has none yet), and a wake-up per
   * subject and group in the same transaction, which PostgreSQL delivers once per payload at commit.
   */
  private async publishBatch(messages: Outgoing[]): Promise<Published[]> {
    const { rows } = await this.pool.query<{ message_id: string; grp: string }>(
      prepared(
        `WITH m AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS m(subject, message_id, body, headers, reply_to, i)),
           ins AS (
             INSERT INTO queue_items (message_id, subject, grp, body, headers, reply_to, published_at, visible_at)
             SELECT m.message_id, m.subject, COALESCE(g.grp, ''), m.body, m.headers, m.reply_to, flow_now_ms(), flow_now_ms()
             FROM m LEFT JOIN queue_groups g ON g.subject = m.subject ORDER BY m.i, g.grp
             RETURNING message_id, subject, grp)
         SELECT message_id, grp, pg_notify('${WAKE_CHANNEL}', json_build_array('q', subject, grp, $6::text)::text) FROM ins`,
        [
          messages.map((m) => m.subject),
          messages.map((m) => m.messageId),
          messages.map((m) => m.body),
          messages.map((m) => m.headers),
          messages.map((m) => m.replyTo),
          this.origin,
        ],
      ),
    );
    const groups = new Map<string, string[]>(messages.map((m) => [m.messageId, []]));
    for (const r of rows) if (r.grp !== '') groups.get(r.message_id)!.push(r.grp);
    // Published to nobody while a first group may have been joining: hand it over (see joinGroup).
    const unclaimed = new Set(messages.filter((m) => groups.get(m.messageId)!.length === 0).map((m) => m.subject));
    for (const subject of unclaimed) await this.adoptUnclaimed(subject);
    return messages.map((m) => ({ messageId: m.messageId, groups: groups.get(m.messageId)! }));
  }

  async joinGroup(subject: string, group: string): Promise<void> {
    const seen = await this.pool.query(prepared('UPDATE queue_groups SET last_receive_at = flow_now_ms() WHERE subject = $1 AND grp = $2', [subject, group]));
    if (seen.rowCount) return;
    await this.pool.query(
      prepared('INSERT INTO queue_groups (subject, grp, created_at, last_receive_at) VALUES ($1, $2, flow_now_ms(), flow_now_ms()) ON CONFLICT DO NOTHING', [
        subject,
        group,
      ]),
    );
    // Both a publish that found no group and a group's first join adopt afterwards, each in a
    // statement that starts after its own write committed: whichever runs second sees the
    // other's row, so no message is left in the unclaimed group.
    await this.adoptUnclaimed(subject);
  }

  async groupsOf(subject: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ grp: string }>(prepared('SELECT grp FROM queue_groups WHERE subject = $1 ORDER BY created_at, grp', [subject]));
    return rows.map((r) => r.grp);
  }

  async claim(subject: string, group: string, limit: number, ackDeadlineMs: number): Promise<QueueDelivery[]> {
    const { rows } = await this.pool.query<Omit<QueueDelivery, 'handle'> & { receipt: string }>(
      prepared(
        `WITH picked AS (
         SELECT id FROM queue_items q
         WHERE subject = $1 AND grp = $2 AND visible_at <= flow_now_ms()
           AND (reply_to IS NULL OR EXISTS (SELECT 1 FROM queue_requests r WHERE r.reply_to = q.reply_to AND r.expires_at > flow_now_ms()))
         ORDER BY visible_at, id LIMIT $3
         FOR UPDATE SKIP LOCKED)
       UPDATE queue_items q SET visible_at = flow_now_ms() + $4, delivery_count = delivery_count + 1,
         receipt = replace(gen_random_uuid()::text, '-', '')
       FROM picked WHERE q.id = picked.id
       RETURNING q.id, q.message_id AS "messageId", q.grp AS "group", q.body, q.headers, q.reply_to AS "replyTo",
         q.published_at AS "publishedAt", q.delivery_count AS "deliveryCount", q.receipt`,
        [subject, group, limit, ackDeadlineMs],
      ),
    );
    rows.sort((a, b) => a.id - b.id);
    return rows.map(({ receipt, ...row }) => ({ ...row, handle: `${row.id}.${receipt}` }));
  }

  async nextVisibleAt(subject: string, group: string): Promise<number | undefined> {
    // As a delay from now on the database clock, turned into this process's clock: no skew.
    const { rows } = await this.pool.query<{ inMs: number | null }>(
      prepared('SELECT min(visible_at) - flow_now_ms() AS "inMs" FROM queue_items WHERE subject = $1 AND grp = $2 AND visible_at > flow_now_ms()', [
        subject,
        group,
      ]),
    );
    const inMs = rows[0]?.inMs;
    return inMs === null || inMs === undefined ? undefined : Date.now() + inMs;
  }

  async ack(subject: string, handles: string[]): Promise<SettledDelivery[]> {
    const [ids, receipts] = parseHandles(handles);
    if (ids.length === 0) return [];
    return this.acks.submit({ subject, ids, receipts });
  }

  /** Acks that arrive together (consumers of any subject) in one statement; each gets back what it settled. */
  private async ackBatch(asks: Settle[]): Promise<SettledDelivery[][]> {
    const subjects: string[] = [];
    const ids: number[] = [];
    const receipts: string[] = [];
    for (const a of asks) {
      for (let i = 0; i < a.ids.length; i++) {
        subjects.push(a.subject);
        ids.push(a.ids[i]);
        receipts.push(a.receipts[i]);
      }
    }
    const { rows } = await this.pool.query<SettledDelivery & { id: number }>(
      prepared(
        `DELETE FROM queue_items q USING unnest($1::text[], $2::bigint[], $3::text[]) AS h(subject, id, receipt)
       WHERE q.id = h.id AND q.receipt = h.receipt AND q.subject = h.subject AND q.visible_at > flow_now_ms()
       RETURNING q.id, q.grp AS "group", q.message_id AS "messageId"`,
        [subjects, ids, receipts],
      ),
    );
    // A deleted row is settled once, for the first ask that named it (a handle sent twice settles once).
    const settled = new Map(rows.map((r) => [r.id, { group: r.group, messageId: r.messageId }]));
    return asks.map((a) =>
      a.ids.flatMap((id) => {
        const row = settled.get(id);
        settled.delete(id);
        return row ?? [];
      }),
    );
  }

  async nack(subject: string, handles: string[], delayMs: number): Promise<SettledDelivery[]> {
    const [ids, receipts] = parseHandles(handles);
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<SettledDelivery>(
      prepared(
        `WITH settled AS (
         UPDATE queue_items q SET visible_at = flow_now_ms() + $4, receipt = NULL FROM unnest($2::bigint[], $3::text[]) AS h(id, receipt)
         WHERE q.id = h.id AND q.receipt = h.receipt AND q.subject = $1 AND q.visible_at > flow_now_ms()
         RETURNING q.grp, q.message_id)
       SELECT grp AS "group", message_id AS "messageId", pg_notify('${WAKE_CHANNEL}', json_build_array('q', $1::text, grp, $5::text)::text) FROM settled`,
        [subject, ids, receipts, delayMs, this.origin],
      ),
    );
    return rows.map((r) => ({ group: r.group, messageId: r.messageId }));
  }

  async extend(subject: string, handles: string[], deadlineMs: number): Promise<number> {
    const [ids, receipts] = parseHandles(handles);
    if (ids.length === 0) return 0;
    const { rowCount } = await this.pool.query(
      `UPDATE queue_items q SET visible_at = flow_now_ms() + $4 FROM unnest($2::bigint[], $3::text[]) AS h(id, receipt)
       WHERE q.id = h.id AND q.receipt = h.receipt AND q.subject = $1 AND q.visible_at > flow_now_ms()`,
      [subject, ids, receipts, deadlineMs],
    );
    return rowCount ?? 0;
  }

  async dropRequest(replyTo: string): Promise<void> {
    await this.pool.query(prepared('DELETE FROM queue_items WHERE reply_to = $1', [replyTo]));
  }

  async lastReceiveAt(subject: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ agoMs: number | null }>(
      prepared('SELECT flow_now_ms() - max(last_receive_at) AS "agoMs" FROM queue_groups WHERE subject = $1', [subject]),
    );
    const ago = rows[0]?.agoMs;
    return ago === null || ago === undefined ? undefined : Date.now() - ago;
  }

  /** Hands messages published while the subject had no group to its first group. */
  async adoptUnclaimed(subject: string): Promise<void> {
    await this.pool.query(
      prepared(
        // The group is read once, before the rows: with no group yet (publishes to a subject nobody
        // received on), nothing is scanned, however many messages wait unclaimed.
        `WITH first AS MATERIALIZED (SELECT grp FROM queue_groups WHERE subject = $1 ORDER BY created_at, grp LIMIT 1),
            moved AS (UPDATE queue_items SET grp = (SELECT grp FROM first) WHERE EXISTS (SELECT 1 FROM first) AND subject = $1 AND grp = '' RETURNING grp)
       SELECT pg_notify('${WAKE_CHANNEL}', json_build_array('q', $1::text, grp)::text) FROM (SELECT DISTINCT grp FROM moved) m`,
        [subject],
      ),
    );
  }
}

/**
 * Replies that reach another replica than the one holding the request: the holder records the
 * request (`open`), the replica that gets the reply stores it and notifies, the holder takes it.
 * A request's row carries a deadline, so a holder that died leaves nothing deliverable behind.
 */
class PostgresReplies implements ReplyExchange {
  constructor(private readonly pool: pg.Pool) {}

  async open(replyTo: string, subject: string): Promise<void> {
    // Generous: the holder deletes the row when the request ends; the deadline only covers a holder that died.
    await this.pool.query(prepared('INSERT INTO queue_requests (reply_to, subject, expires_at) VALUES ($1, $2, flow_now_ms() + 3600000)', [replyTo, subject]));
  }

  async close(replyTo: string): Promise<void> {
    await this.pool.query(prepared('WITH r AS (DELETE FROM queue_requests WHERE reply_to = $1) DELETE FROM queue_replies WHERE reply_to = $1', [replyTo]));
  }

  async claim(replyTo: string): Promise<boolean> {
    const taken = await this.pool.query(prepared('DELETE FROM queue_requests WHERE reply_to = $1 AND expires_at > flow_now_ms()', [replyTo]));
    return (taken.rowCount ?? 0) > 0;
  }

  deliver(replyTo: string, body: string, headers: string | null): Promise<boolean> {
    return inTransaction(this.pool, async (c) => {
      // Taking the request row makes the first reply the only one.
      const taken = await c.query(prepared('DELETE FROM queue_requests WHERE reply_to = $1 AND expires_at > flow_now_ms()', [replyTo]));
      if (!taken.rowCount) return false;
      await c.query(prepared('INSERT INTO queue_replies (reply_to, body, headers) VALUES ($1, $2, $3)', [replyTo, body, headers]));
      await c.query(prepared(`SELECT pg_notify('${WAKE_CHANNEL}', json_build_array('r', $1::text)::text)`, [replyTo]));
      return true;
    });
  }

  async take(replyTo: string): Promise<{ body: string; headers: string | null } | undefined> {
    const { rows } = await this.pool.query<{ body: string; headers: string | null }>(
      prepared('DELETE FROM queue_replies WHERE reply_to = $1 RETURNING body, headers', [replyTo]),
    );
    return rows[0];
  }
}

function parseHandles(handles: string[]): [number[], string[]] {
  const ids: number[] = [];
  const receipts: string[] = [];
  for (const handle of handles) {
    const parsed = parseHandle(handle);
    if (!parsed) continue;
    ids.push(parsed.id);
    receipts.push(parsed.receipt);
  }
  return [ids, receipts];
}
