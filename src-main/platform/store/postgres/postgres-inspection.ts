import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AgentInfo } from '../../../../shared/platform-views.ts';
import type {
  ConversationRow,
  InspectionStore,
  KvKeyRow,
  KvNamespaceCounts,
  QueueGroupCounts,
  StoredClaim,
  StoredQueueRow,
  StoredTopicRow,
  UserMemory,
} from '../inspection-store.ts';
import type { PostgresQueues } from './postgres-queues.ts';
import { WAKE_CHANNEL } from './postgres-wakeups.ts';

/**
 * The inspection reads on PostgreSQL: what every replica stores, read with the same columns as
 * on SQLite (store/sqlite/sqlite-inspection.ts). A topic message's id is its stream sequence number here.
 * Volatile KV namespaces are not listed, as on SQLite (the studio follows them from its feed).
 */
export class PostgresInspection implements InspectionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly queues: PostgresQueues,
  ) {}

  async queueCounts(now: number): Promise<QueueGroupCounts[]> {
    return this.rows<QueueGroupCounts>(
      `SELECT subject, grp AS "group", count(*) FILTER (WHERE visible_at <= $1)::int AS waiting,
         count(*) FILTER (WHERE visible_at > $1 AND receipt IS NOT NULL)::int AS "inFlight",
         count(*) FILTER (WHERE visible_at > $1 AND receipt IS NULL)::int AS delayed
       FROM queue_items GROUP BY subject, grp`,
      [now],
    );
  }

  async queueGroups(): Promise<Array<{ subject: string; group: string }>> {
    return this.rows('SELECT subject, grp AS "group" FROM queue_groups');
  }

  async queueMessages(subject: string, group: string, limit: number, offset: number, previewBytes: number): Promise<StoredQueueRow[]> {
    return this.rows<StoredQueueRow>(
      `SELECT message_id AS "messageId", grp, left(body, $1) AS body, octet_length(body) AS "bodyBytes", headers, reply_to AS "replyTo",
         published_at AS "publishedAt", visible_at AS "visibleAt", delivery_count AS "deliveryCount", receipt IS NOT NULL AS claimed
       FROM queue_items WHERE subject = $2 AND grp = $3 ORDER BY visible_at, id LIMIT $4 OFFSET $5`,
      [previewBytes, subject, group, limit, offset],
    );
  }

  async addQueueGroup(subject: string, group: string): Promise<void> {
    // No receive is recorded (last_receive_at 0): creating a group is not a consumer being there.
    const added = await this.pool.query(
      'INSERT INTO queue_groups (subject, grp, created_at, last_receive_at) VALUES ($1, $2, flow_now_ms(), 0) ON CONFLICT DO NOTHING',
      [subject, group],
    );
    if (added.rowCount) await this.queues.adoptUnclaimed(subject);
  }

  async publishToGroup(subject: string, group: string, body: string, headers: string | null): Promise<string> {
    const messageId = randomUUID();
    // Notified like any publish, so receives of the group held by other replicas wake.
    await this.pool.query(
      `WITH ins AS (
         INSERT INTO queue_items (message_id, subject, grp, body, headers, published_at, visible_at)
         VALUES ($1, $2, $3, $4, $5, flow_now_ms(), flow_now_ms()) RETURNING grp)
       SELECT pg_notify('${WAKE_CHANNEL}', json_build_array('q', $2::text, grp)::text) FROM ins`,
      [messageId, subject, group, body, headers],
    );
    return messageId;
  }

  async purgeQueue(subject: string, group?: string): Promise<number> {
    const { rowCount } =
      group === undefined
        ? await this.pool.query('DELETE FROM queue_items WHERE subject = $1', [subject])
        : await this.pool.query('DELETE FROM queue_items WHERE subject = $1 AND grp = $2', [subject, group]);
    return rowCount ?? 0;
  }

  async topicSubscriptions(): Promise<Array<{ id: string; plane: string; subject: string }>> {
    return this.rows('SELECT id, plane, subject FROM topic_subscriptions ORDER BY plane, subject, created_at');
  }

  async topicStored(): Promise<Array<{ plane: string; subject: string; stored: number }>> {
    return this.rows('SELECT plane, subject, count(*)::int AS stored FROM topic_messages GROUP BY plane, subject');
  }

  async topicCount(plane: string, subject: string, after: number, upTo?: number): Promise<number> {
    const [row] = await this.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM topic_messages WHERE plane = $1 AND subject = $2 AND seq > $3 AND ($4::bigint IS NULL OR seq <= $4)',
      [plane, subject, after, upTo ?? null],
    );
    return row.n;
  }

  async topicRecent(plane: string, subject: string, limit: number, previewBytes: number): Promise<StoredTopicRow[]> {
    return this.rows<StoredTopicRow>(
      `SELECT seq AS id, published_at AS "publishedAt", headers, left(body, $1) AS body, octet_length(body) AS "bodyBytes"
       FROM topic_messages WHERE plane = $2 AND subject = $3 ORDER BY seq DESC LIMIT $4`,
      [previewBytes, plane, subject, limit],
    );
  }

  async kvNamespaces(): Promise<KvNamespaceCounts[]> {
    return this.rows<KvNamespaceCounts>('SELECT namespace, count(*)::int AS keys, max(updated_at) AS "updatedAt", max(version) AS "lastVersion" FROM kv_entries GROUP BY namespace ORDER BY namespace');
  }

  async kvKeys(namespace: string, from: string, to: string, limit: number): Promise<KvKeyRow[]> {
    // Byte order (COLLATE "C"), as SQLite compares keys.
    return this.rows<KvKeyRow>(
      `SELECT key, version, updated_at AS "updatedAt", octet_length(value) AS bytes FROM kv_entries
       WHERE namespace = $1 AND key COLLATE "C" >= $2 AND key COLLATE "C" < $3 ORDER BY key COLLATE "C" LIMIT $4`,
      [namespace, from, to, limit],
    );
  }

  async kvMeta(namespace: string, key: string): Promise<{ version: number; updatedAt: number } | undefined> {
    const [row] = await this.rows<{ version: number; updatedAt: number }>('SELECT version, updated_at AS "updatedAt" FROM kv_entries WHERE namespace = $1 AND key = $2', [
      namespace,
      key,
    ]);
    return row;
  }

  async leaseClaims(): Promise<StoredClaim[]> {
    return this.rows<StoredClaim>(
      `SELECT kind, name, lease_id AS "leaseId", holder, fencing AS "fencingToken", ttl_ms AS "ttlMs", granted_at AS "grantedAt", expires_at AS "expiresAt"
       FROM leases ORDER BY kind, name`,
    );
  }

  async agents(): Promise<AgentInfo[]> {
    return this.rows<AgentInfo>(
      `SELECT agent_id AS "agentId", sum(c)::int AS conversations, sum(m)::int AS memories, max(at) AS "lastActivity" FROM (
         SELECT agent_id, 1 AS c, 0 AS m, updated_at AS at FROM agent_threads
         UNION ALL SELECT agent_id, 0, 1, updated_at FROM agent_memories) a
       GROUP BY agent_id ORDER BY agent_id`,
    );
  }

  async conversations(agentId: string, limit: number): Promise<ConversationRow[]> {
    return this.rows<ConversationRow>(`SELECT ${CONVERSATION} FROM agent_threads WHERE agent_id = $1 ORDER BY updated_at DESC, thread_key LIMIT $2`, [agentId, limit]);
  }

  async conversation(agentId: string, threadKey: string): Promise<ConversationRow | undefined> {
    const [row] = await this.rows<ConversationRow>(`SELECT ${CONVERSATION} FROM agent_threads WHERE agent_id = $1 AND thread_key = $2`, [agentId, threadKey]);
    return row;
  }

  async memories(agentId: string): Promise<UserMemory[]> {
    return this.rows<UserMemory>(
      `SELECT user_id AS "userId", name, content, version, created_at AS "createdAt", updated_at AS "updatedAt"
       FROM agent_memories WHERE agent_id = $1 ORDER BY user_id, name`,
      [agentId],
    );
  }

  private async rows<T extends object>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query<T>(sql, params)).rows;
  }
}

const CONVERSATION = `thread_key AS "threadKey", user_id AS "userId", title, version, turn_count AS turns, COALESCE(octet_length(working), 0) AS "workingBytes",
  iteration, tokens, created_at AS "createdAt", updated_at AS "updatedAt"`;
