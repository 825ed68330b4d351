import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Subscription, TopicMessage, TopicStore } from '../topic-store.ts';
import { inTransaction, prepared } from './postgres-connection.ts';
import { WAKE_CHANNEL } from './postgres-wakeups.ts';

interface SubscriptionRow {
  id: string;
  plane: string;
  subject: string;
  cursor: number;
  delivered: number;
  delivered_until: number;
  created_at: number;
  last_active_at: number;
}

/**
 * Topic streams on PostgreSQL. A subscription is a cursor: the sequence number of the last
 * message it acknowledged; a receive reads messages with a larger one.
 *
 * Why the cursor cannot skip a message: with a plain sequence (bigserial), two publishers can
 * take numbers 10 and 11 and commit 11 first; a reader then sees 11, acknowledges it, and its
 * cursor has passed 10 before 10 is visible — 10 is never delivered. Here each stream keeps its
 * last number in a `topic_streams` row, and a publish bumps it with an UPDATE whose row lock is
 * held until the publish commits. The next publisher on that stream waits for the lock, so it
 * gets 11 only after 10 is committed: within a stream, numbers become visible in order, and
 * any number a reader sees has every smaller one visible too. Publishes to one stream are
 * serialized (one row lock each); different streams do not contend.
 *
 * In-flight state (`delivered`, `delivered_until`) is in the subscription row, so a receive on
 * one replica and an ack on another agree; receives of one subscription serialize on its row.
 */
export class PostgresTopics implements TopicStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly idleMs: number,
  ) {}

  publish(plane: string, subject: string, body: string, headers: string | null): Promise<number> {
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<{ seq: number }>(
        prepared(
          `INSERT INTO topic_streams (plane, subject, last_seq) VALUES ($1, $2, 1)
         ON CONFLICT (plane, subject) DO UPDATE SET last_seq = topic_streams.last_seq + 1 RETURNING last_seq AS seq`,
          [plane, subject],
        ),
      );
      const seq = rows[0].seq;
      // A new statement, so it sees subscriptions committed while this one waited for the lock.
      // With no subscription on the stream nobody can ever read the message: new cursors start after it.
      await c.query(
        prepared(
          `WITH ins AS (
           INSERT INTO topic_messages (plane, subject, seq, body, headers, published_at)
           SELECT $1, $2, $3, $4, $5, flow_now_ms() WHERE EXISTS (SELECT 1 FROM topic_subscriptions WHERE plane = $1 AND subject = $2)
           RETURNING seq)
         SELECT pg_notify('${WAKE_CHANNEL}', json_build_array('t', $1::text, $2::text)::text) FROM ins`,
          [plane, subject, seq, body, headers],
        ),
      );
      return seq;
    });
  }

  subscribe(plane: string, subject: string): Promise<Subscription> {
    return inTransaction(this.pool, async (c) => {
      // Takes the stream's row lock too, so a publish is either before the cursor or stored for it.
      const { rows } = await c.query<{ seq: number }>(
        prepared(
          `INSERT INTO topic_streams (plane, subject, last_seq) VALUES ($1, $2, 0)
         ON CONFLICT (plane, subject) DO UPDATE SET last_seq = topic_streams.last_seq RETURNING last_seq AS seq`,
          [plane, subject],
        ),
      );
      const id = `sub-${randomBytes(12).toString('hex')}`;
      const sub = await c.query<SubscriptionRow>(
        prepared(
          `INSERT INTO topic_subscriptions (id, plane, subject, cursor, delivered, delivered_until, created_at, last_active_at)
         VALUES ($1, $2, $3, $4, $4, 0, flow_now_ms(), flow_now_ms()) RETURNING *`,
          [id, plane, subject, rows[0].seq],
        ),
      );
      return toSubscription(sub.rows[0]);
    });
  }

  async get(id: string): Promise<Subscription | undefined> {
    const { rows } = await this.pool.query<SubscriptionRow & { idle: boolean }>(
      prepared('SELECT *, last_active_at < flow_now_ms() - $2 AS idle FROM topic_subscriptions WHERE id = $1', [id, this.idleMs]),
    );
    const row = rows[0];
    if (!row) return undefined;
    if (row.idle) {
      await this.pool.query(prepared('DELETE FROM topic_subscriptions WHERE id = $1', [id]));
      return undefined;
    }
    return toSubscription(row);
  }

  async touch(id: string): Promise<void> {
    await this.pool.query(prepared('UPDATE topic_subscriptions SET last_active_at = flow_now_ms() WHERE id = $1', [id]));
  }

  async unsubscribe(id: string): Promise<Subscription | undefined> {
    // Ends receives waiting on it in other replicas too.
    const { rows } = await this.pool.query<SubscriptionRow>(
      prepared(
        `WITH gone AS (DELETE FROM topic_subscriptions WHERE id = $1 RETURNING *)
       SELECT gone.*, pg_notify('${WAKE_CHANNEL}', json_build_array('u', gone.id)::text) FROM gone`,
        [id],
      ),
    );
    return rows[0] && toSubscription(rows[0]);
  }

  take(id: string, limit: number, ackDeadlineMs: number): Promise<TopicMessage[]> {
    return inTransaction(this.pool, async (c) => {
      const subs = await c.query<SubscriptionRow & { now: number }>(
        prepared('SELECT *, flow_now_ms() AS now FROM topic_subscriptions WHERE id = $1 FOR UPDATE', [id]),
      );
      const sub = subs.rows[0];
      if (!sub) return [];
      const after = sub.delivered_until > sub.now ? sub.delivered : sub.cursor;
      const { rows } = await c.query<TopicMessage>(
        prepared(
          `SELECT seq AS id, body, headers, published_at AS "publishedAt" FROM topic_messages
         WHERE plane = $1 AND subject = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
          [sub.plane, sub.subject, after, limit],
        ),
      );
      if (rows.length > 0) {
        await c.query(
          prepared('UPDATE topic_subscriptions SET delivered = $2, delivered_until = $3, last_active_at = $4 WHERE id = $1', [
            id,
            rows[rows.length - 1].id,
            // An extension (a run paused in a debugger holds its delivery) is never cut short.
            Math.max(sub.delivered_until, sub.now + ackDeadlineMs),
            sub.now,
          ]),
        );
      }
      return rows;
    });
  }

  async redeliveryAt(id: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ inMs: number }>(
      prepared(
        `SELECT delivered_until - flow_now_ms() AS "inMs" FROM topic_subscriptions
       WHERE id = $1 AND delivered > cursor AND delivered_until > flow_now_ms()`,
        [id],
      ),
    );
    return rows[0] ? Date.now() + rows[0].inMs : undefined;
  }

  async ack(id: string, ids: number[]): Promise<{ before: number; cursor: number } | undefined> {
    const { rows } = await this.pool.query<{ before: number; cursor: number }>(
      prepared(
        `WITH old AS (SELECT id, cursor, delivered FROM topic_subscriptions WHERE id = $1 FOR UPDATE)
       UPDATE topic_subscriptions s SET last_active_at = flow_now_ms(),
         cursor = GREATEST(old.cursor, COALESCE((SELECT max(x) FROM unnest($2::bigint[]) x WHERE x <= old.delivered), 0))
       FROM old WHERE s.id = old.id RETURNING old.cursor AS before, s.cursor`,
        [id, ids],
      ),
    );
    return rows[0];
  }

  async extend(id: string, ids: number[], deadlineMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      prepared(
        `UPDATE topic_subscriptions SET delivered_until = GREATEST(delivered_until, flow_now_ms() + $3), last_active_at = flow_now_ms()
       WHERE id = $1 AND delivered_until > flow_now_ms() AND EXISTS (SELECT 1 FROM unnest($2::bigint[]) x WHERE x > cursor AND x <= delivered)`,
        [id, ids, deadlineMs],
      ),
    );
    return (rowCount ?? 0) > 0;
  }

  async sweep(receiving: ReadonlySet<string>): Promise<Subscription[]> {
    if (receiving.size > 0)
      await this.pool.query(prepared('UPDATE topic_subscriptions SET last_active_at = flow_now_ms() WHERE id = ANY($1::text[])', [[...receiving]]));
    const { rows } = await this.pool.query<SubscriptionRow>(
      prepared('DELETE FROM topic_subscriptions WHERE last_active_at < flow_now_ms() - $1 RETURNING *', [this.idleMs]),
    );
    await this.pool.query(
      `DELETE FROM topic_messages m WHERE seq <= COALESCE(
         (SELECT min(cursor) FROM topic_subscriptions s WHERE s.plane = m.plane AND s.subject = m.subject), 9223372036854775807)`,
    );
    return rows.map(toSubscription);
  }
}

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    plane: row.plane,
    subject: row.subject,
    cursor: row.cursor,
    delivered: row.delivered,
    deliveredUntil: row.delivered_until,
    createdAt: row.created_at,
    lastActiveAt: row.last_active_at,
  };
}
