import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../../../shared/clock.ts';
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
import type { Db } from './sqlite-database.ts';
import type { SqliteQueues } from './sqlite-queues.ts';

/** The inspection reads on the embedded SQLite file: prepared once, answered at once. */
export class SqliteInspection implements InspectionStore {
  private readonly countsStmt: Statement<{ now: number }>;
  private readonly groupsStmt: Statement<[]>;
  private readonly peekStmt: Statement<[number, string, string, number, number]>;
  private readonly recentStmt: Statement<[number, string, string, number]>;
  private readonly purgeGroupStmt: Statement<[string, string]>;
  private readonly purgeAllStmt: Statement<[string]>;
  private readonly insertOne: Statement<[string, string, string, string, string | null, number, number]>;
  private readonly subsStmt: Statement<[]>;
  private readonly storedStmt: Statement<[]>;
  private readonly lagStmt: Statement<[string, string, number]>;
  private readonly inFlightStmt: Statement<[string, string, number, number]>;
  private readonly namespacesStmt: Statement<[]>;
  private readonly keysStmt: Statement<[string, string, string, number]>;
  private readonly metaStmt: Statement<[string, string]>;
  private readonly claimsStmt: Statement<[]>;
  private readonly agentsStmt: Statement<[]>;
  private readonly conversationsStmt: Statement<[string, number]>;
  private readonly conversationStmt: Statement<[string, string]>;
  private readonly memoriesStmt: Statement<[string]>;
  private readonly publishOne: (subject: string, group: string, body: string, headers: string | null) => string;

  constructor(
    db: Db,
    private readonly queues: SqliteQueues,
    clock: Clock,
  ) {
    this.countsStmt = db.prepare(
      `SELECT subject, grp AS "group", SUM(visible_at <= @now) AS waiting,
         SUM(visible_at > @now AND receipt IS NOT NULL) AS inFlight, SUM(visible_at > @now AND receipt IS NULL) AS delayed
       FROM queue_items GROUP BY subject, grp`,
    );
    this.groupsStmt = db.prepare('SELECT subject, grp AS "group" FROM queue_groups');
    this.peekStmt = db.prepare(
      `SELECT message_id AS messageId, grp, substr(body, 1, ?) AS body, length(CAST(body AS BLOB)) AS bodyBytes, headers,
         reply_to AS replyTo, published_at AS publishedAt, visible_at AS visibleAt, delivery_count AS deliveryCount, receipt IS NOT NULL AS claimed
       FROM queue_items WHERE subject = ? AND grp = ? ORDER BY visible_at, id LIMIT ? OFFSET ?`,
    );
    this.purgeGroupStmt = db.prepare('DELETE FROM queue_items WHERE subject = ? AND grp = ?');
    this.purgeAllStmt = db.prepare('DELETE FROM queue_items WHERE subject = ?');
    this.insertOne = db.prepare('INSERT INTO queue_items (message_id, subject, grp, body, headers, published_at, visible_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.publishOne = db.transaction((subject: string, group: string, body: string, headers: string | null) => {
      const messageId = randomUUID();
      const now = clock.now();
      this.insertOne.run(messageId, subject, group, body, headers, now, now);
      return messageId;
    });

    this.subsStmt = db.prepare('SELECT id, plane, subject FROM topic_subscriptions ORDER BY plane, subject, created_at');
    this.storedStmt = db.prepare('SELECT plane, subject, COUNT(*) AS stored FROM topic_messages GROUP BY plane, subject');
    this.lagStmt = db.prepare('SELECT COUNT(*) FROM topic_messages WHERE plane = ? AND subject = ? AND id > ?').pluck();
    this.inFlightStmt = db.prepare('SELECT COUNT(*) FROM topic_messages WHERE plane = ? AND subject = ? AND id > ? AND id <= ?').pluck();
    this.recentStmt = db.prepare(
      `SELECT id, published_at AS publishedAt, headers, substr(body, 1, ?) AS body, length(CAST(body AS BLOB)) AS bodyBytes
       FROM topic_messages WHERE plane = ? AND subject = ? ORDER BY id DESC LIMIT ?`,
    );

    this.namespacesStmt = db.prepare('SELECT namespace, COUNT(*) AS keys, MAX(updated_at) AS updatedAt, MAX(version) AS lastVersion FROM kv_entries GROUP BY namespace ORDER BY namespace');
    this.keysStmt = db.prepare(
      `SELECT key, version, updated_at AS updatedAt, length(value) AS bytes FROM kv_entries
       WHERE namespace = ? AND key >= ? AND key < ? ORDER BY key LIMIT ?`,
    );
    this.metaStmt = db.prepare('SELECT version, updated_at AS updatedAt FROM kv_entries WHERE namespace = ? AND key = ?');

    this.claimsStmt = db.prepare(
      `SELECT kind, name, lease_id AS leaseId, holder, fencing AS fencingToken, ttl_ms AS ttlMs, granted_at AS grantedAt, expires_at AS expiresAt
       FROM leases ORDER BY kind, name`,
    );

    this.agentsStmt = db.prepare(
      `SELECT agent_id AS agentId, SUM(c) AS conversations, SUM(m) AS memories, MAX(at) AS lastActivity FROM (
         SELECT agent_id, 1 AS c, 0 AS m, updated_at AS at FROM agent_threads
         UNION ALL SELECT agent_id, 0, 1, updated_at FROM agent_memories)
       GROUP BY agent_id ORDER BY agent_id`,
    );
    const columns = `thread_key AS threadKey, user_id AS userId, title, version, turn_count AS turns, COALESCE(length(working), 0) AS workingBytes,
      iteration, tokens, created_at AS createdAt, updated_at AS updatedAt`;
    this.conversationsStmt = db.prepare(`SELECT ${columns} FROM agent_threads WHERE agent_id = ? ORDER BY updated_at DESC, thread_key LIMIT ?`);
    this.conversationStmt = db.prepare(`SELECT ${columns} FROM agent_threads WHERE agent_id = ? AND thread_key = ?`);
    this.memoriesStmt = db.prepare(
      `SELECT user_id AS userId, name, content, version, created_at AS createdAt, updated_at AS updatedAt
       FROM agent_memories WHERE agent_id = ? ORDER BY user_id, name`,
    );
  }

  async queueCounts(now: number): Promise<QueueGroupCounts[]> {
    return this.countsStmt.all({ now }) as QueueGroupCounts[];
  }

  async queueGroups(): Promise<Array<{ subject: string; group: string }>> {
    return this.groupsStmt.all() as Array<{ subject: string; group: string }>;
  }

  async queueMessages(subject: string, group: string, limit: number, offset: number, previewBytes: number): Promise<StoredQueueRow[]> {
    return this.peekStmt.all(previewBytes, subject, group, limit, offset) as StoredQueueRow[];
  }

  async addQueueGroup(subject: string, group: string): Promise<void> {
    if (!this.queues.hasGroup(subject, group)) this.queues.addGroup(subject, group);
  }

  async publishToGroup(subject: string, group: string, body: string, headers: string | null): Promise<string> {
    return this.publishOne(subject, group, body, headers);
  }

  async purgeQueue(subject: string, group?: string): Promise<number> {
    return group === undefined ? this.purgeAllStmt.run(subject).changes : this.purgeGroupStmt.run(subject, group).changes;
  }

  async topicSubscriptions(): Promise<Array<{ id: string; plane: string; subject: string }>> {
    return this.subsStmt.all() as Array<{ id: string; plane: string; subject: string }>;
  }

  async topicStored(): Promise<Array<{ plane: string; subject: string; stored: number }>> {
    return this.storedStmt.all() as Array<{ plane: string; subject: string; stored: number }>;
  }

  async topicCount(plane: string, subject: string, after: number, upTo?: number): Promise<number> {
    return (upTo === undefined ? this.lagStmt.get(plane, subject, after) : this.inFlightStmt.get(plane, subject, after, upTo)) as number;
  }

  async topicRecent(plane: string, subject: string, limit: number, previewBytes: number): Promise<StoredTopicRow[]> {
    return this.recentStmt.all(previewBytes, plane, subject, limit) as StoredTopicRow[];
  }

  async kvNamespaces(): Promise<KvNamespaceCounts[]> {
    return this.namespacesStmt.all() as KvNamespaceCounts[];
  }

  async kvKeys(namespace: string, from: string, to: string, limit: number): Promise<KvKeyRow[]> {
    return this.keysStmt.all(namespace, from, to, limit) as KvKeyRow[];
  }

  async kvMeta(namespace: string, key: string): Promise<{ version: number; updatedAt: number } | undefined> {
    return this.metaStmt.get(namespace, key) as { version: number; updatedAt: number } | undefined;
  }

  async leaseClaims(): Promise<StoredClaim[]> {
    return this.claimsStmt.all() as StoredClaim[];
  }

  async agents(): Promise<AgentInfo[]> {
    return this.agentsStmt.all() as AgentInfo[];
  }

  async conversations(agentId: string, limit: number): Promise<ConversationRow[]> {
    return this.conversationsStmt.all(agentId, limit) as ConversationRow[];
  }

  async conversation(agentId: string, threadKey: string): Promise<ConversationRow | undefined> {
    return this.conversationStmt.get(agentId, threadKey) as ConversationRow | undefined;
  }

  async memories(agentId: string): Promise<UserMemory[]> {
    return this.memoriesStmt.all(agentId) as UserMemory[];
  }
}
