import type { AgentInfo, ConversationInfo, KvNamespaceInfo, LeaseHolder, QueueGroupStats } from '../../../shared/platform-views.ts';
import type { CuratedMemory } from './agent-memory-store.ts';

/**
 * The store seam's side for the studio's platform views (platform/inspect/): what is stored now,
 * in bulk, which the delegation routes never ask for, and the few writes only the queue panel
 * makes (a publish to one group, a purge). SQLite (store/sqlite/sqlite-inspection.ts) and PostgreSQL
 * (store/postgres/postgres-inspection.ts) answer alike; the inspect classes are
 * written once over it. Bodies come cut to `previewBytes` with their full size, so a large
 * backlog is never read whole.
 */
export interface InspectionStore {
  /** Stored messages by subject and group and state; groups with none stored are not listed. */
  queueCounts(now: number): Promise<QueueGroupCounts[]>;
  queueGroups(): Promise<Array<{ subject: string; group: string }>>;
  /** A group's messages in the order it will receive them. */
  queueMessages(subject: string, group: string, limit: number, offset: number, previewBytes: number): Promise<StoredQueueRow[]>;
  /** Creates the group when it does not exist (taking over messages no group has claimed), without recording a receive. */
  addQueueGroup(subject: string, group: string): Promise<void>;
  /** Stores a message for one group only (a studio test publish); returns its message id. */
  publishToGroup(subject: string, group: string, body: string, headers: string | null): Promise<string>;
  /** Deletes the subject's messages (or one group's); returns how many rows went. */
  purgeQueue(subject: string, group?: string): Promise<number>;

  topicSubscriptions(): Promise<Array<{ id: string; plane: string; subject: string }>>;
  topicStored(): Promise<Array<{ plane: string; subject: string; stored: number }>>;
  /** Stored messages of the stream with an id above `after` (and at most `upTo`). */
  topicCount(plane: string, subject: string, after: number, upTo?: number): Promise<number>;
  /** The newest stored messages of a stream, newest first. */
  topicRecent(plane: string, subject: string, limit: number, previewBytes: number): Promise<StoredTopicRow[]>;

  kvNamespaces(): Promise<KvNamespaceCounts[]>;
  /** Keys of a durable namespace from `from` (inclusive) to `to` (exclusive), in order. */
  kvKeys(namespace: string, from: string, to: string, limit: number): Promise<KvKeyRow[]>;
  kvMeta(namespace: string, key: string): Promise<{ version: number; updatedAt: number } | undefined>;

  leaseClaims(): Promise<StoredClaim[]>;

  agents(): Promise<AgentInfo[]>;
  conversations(agentId: string, limit: number): Promise<ConversationRow[]>;
  conversation(agentId: string, threadKey: string): Promise<ConversationRow | undefined>;
  memories(agentId: string): Promise<UserMemory[]>;
}

/**
 * What a consumer group has on a subject right now, as stored: the stored part of the studio's
 * QueueGroupStats (which adds counters since it started). `group` '' holds messages no group has
 * claimed yet.
 */
export type QueueGroupCounts = Pick<QueueGroupStats, 'subject' | 'group' | 'waiting' | 'inFlight' | 'delayed'>;

export interface StoredQueueRow {
  messageId: string;
  grp: string;
  body: string;
  bodyBytes: number;
  headers: string | null;
  replyTo: string | null;
  publishedAt: number;
  visibleAt: number;
  deliveryCount: number;
  /** Delivered and not settled (1/true), rather than delayed by a nack. */
  claimed: number | boolean;
}

export interface StoredTopicRow {
  id: number;
  publishedAt: number;
  headers: string | null;
  body: string;
  bodyBytes: number;
}

/** A namespace as stored: the studio's KvNamespaceInfo before it adds what only it knows (secret, volatile). */
export type KvNamespaceCounts = Pick<KvNamespaceInfo, 'namespace' | 'keys'> & {
  updatedAt: number;
  /**
   * The highest version among its keys. Every write takes the next value of one counter (§3.5)
   * and a delete lowers the count, so this and `keys` change whenever the namespace does.
   */
  lastVersion: number;
};

/** A stored key. `bytes` is absent in `*_secrets` namespaces: even the size of a secret stays in. */
export interface KvKeyRow {
  key: string;
  version: number;
  updatedAt: number;
  bytes?: number;
}

/** A claim as stored (the studio's LeaseHolder); one whose deadline passed stays until the name is taken again or released. */
export type StoredClaim = LeaseHolder;

/** A conversation as stored: userId and title may be missing (null in the table). */
export type ConversationRow = Omit<ConversationInfo, 'userId' | 'title'> & { userId: string | null; title: string | null };

export interface UserMemory extends CuratedMemory {
  userId: string;
}
