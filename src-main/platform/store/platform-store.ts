import type { LeaseKind } from '../events.ts';
import type { AgentMemoryStore } from './agent-memory-store.ts';
import type { InspectionBackend } from './inspection-backend.ts';
import type { KvEntry } from './kv-store.ts';
import type { ManagementBackend } from './management-backend.ts';
import type { AcquireOutcome, LeaseClaim, RenewOutcome } from './lease-store.ts';
import type { DeleteOutcome, WriteOutcome } from './object-versions.ts';
import type { QueueDelivery, SettledDelivery } from './queue-store.ts';
import type { ResourceKind } from './resource-store.ts';
import type { TelemetryRecord } from './telemetry-store.ts';
import type { Subscription, TopicMessage } from './topic-store.ts';

/**
 * A value now or later. The store seam is asynchronous (PostgreSQL answers over the network),
 * but SQLite answers synchronously and keeps doing so: callers `await` either, and the embedded
 * store pays no promise where it needs none.
 */
export type Awaitable<T> = T | Promise<T>;

/**
 * The store seam: what the delegation routes need from storage, implemented by SQLite (the
 * embedded default, one process) and by PostgreSQL (any number of platform replicas sharing one
 * database). Routes never know which one they run on; every rule of the contract that depends on
 * state shared between replicas (versions, fencing, visibility deadlines, cursors) lives behind it.
 */
export interface PlatformStore {
  readonly kind: 'sqlite' | 'postgres';
  readonly kv: KvBackend;
  readonly resources: ResourceBackend;
  readonly leases: LeaseBackend;
  readonly queues: QueueBackend;
  readonly topics: TopicBackend;
  readonly agentMemory: AgentMemoryBackend;
  readonly traces: TelemetryBackend;
  readonly logs: TelemetryBackend;
  /** Integrations, tags and snapshots, cluster secret names, deployments. */
  readonly management: ManagementBackend;
  /** Bulk reads for the studio's platform views (platform/inspect/). */
  readonly inspection: InspectionBackend;
  /** Wake-ups from other replicas (a publish there, a reply there); absent on a single-process store. */
  readonly wakeups?: CrossReplicaWakeups;
  close(): Promise<void>;
}

export interface KvBackend {
  get(ns: string, key: string): Awaitable<KvEntry | undefined>;
  put(ns: string, key: string, value: Buffer, expected: number): Awaitable<WriteOutcome>;
  /** Like put, durable once it resolves (SQLite commits it with the other writes of this turn: group commit). */
  putCommitted(ns: string, key: string, value: Buffer, expected: number): Awaitable<WriteOutcome>;
  delete(ns: string, key: string, expected: number): Awaitable<DeleteOutcome>;
}

export interface ResourceBackend {
  read(kind: ResourceKind, name: string): Awaitable<Buffer | undefined>;
  write(kind: ResourceKind, name: string, content: Buffer, updatedBy: string): Awaitable<void>;
}

export interface LeaseBackend {
  acquire(kind: LeaseKind, name: string, holder: string, ttlMs: number, sameHolderRenews: boolean): Awaitable<AcquireOutcome>;
  renew(kind: LeaseKind, leaseId: string, ttlMs?: number): Awaitable<RenewOutcome>;
  holderOf(kind: LeaseKind, name: string): Awaitable<LeaseClaim | undefined>;
  release(kind: LeaseKind, leaseId: string): Awaitable<LeaseClaim | undefined>;
}

export interface QueueBackend {
  publish(subject: string, body: string, headers: string | null, replyTo?: string): Awaitable<{ messageId: string; groups: readonly string[] }>;
  /** Like publish, durable once it resolves (SQLite: group commit). */
  publishCommitted(subject: string, body: string, headers: string | null): Awaitable<{ messageId: string; groups: readonly string[] }>;
  /** Makes the group exist (a no-op when it does) and records that it receives now. */
  joinGroup(subject: string, group: string): Awaitable<void>;
  groupsOf(subject: string): Awaitable<readonly string[]>;
  claim(subject: string, group: string, limit: number, ackDeadlineMs: number): Awaitable<QueueDelivery[]>;
  nextVisibleAt(subject: string, group: string): Awaitable<number | undefined>;
  ack(subject: string, handles: string[]): Awaitable<SettledDelivery[]>;
  nack(subject: string, handles: string[], delayMs: number): Awaitable<SettledDelivery[]>;
  /** Pushes the deadline of current deliveries to `deadlineMs` from now; stale handles change nothing. */
  extend(subject: string, handles: string[], deadlineMs: number): Awaitable<number>;
  dropRequest(replyTo: string): Awaitable<void>;
  /** When any replica last saw a receive on the subject (undefined: this store only knows its own process). */
  lastReceiveAt(subject: string): Awaitable<number | undefined>;
  /** Request/reply across replicas; absent when every request is answered by the process holding it. */
  readonly replies?: ReplyExchange;
}

/** Pending requests and their replies, for a reply posted to another replica than the one holding the request. */
export interface ReplyExchange {
  open(replyTo: string, subject: string): Promise<void>;
  close(replyTo: string): Promise<void>;
  /** Takes the right to answer the request (the first reply, on any replica, wins); false when it is gone. */
  claim(replyTo: string): Promise<boolean>;
  /** Stores the reply for the replica holding the request; false when no such request is pending. */
  deliver(replyTo: string, body: string, headers: string | null): Promise<boolean>;
  /** Takes a stored reply (once). */
  take(replyTo: string): Promise<{ body: string; headers: string | null } | undefined>;
}

export interface TopicBackend {
  publish(plane: string, subject: string, body: string, headers: string | null): Awaitable<number>;
  subscribe(plane: string, subject: string): Awaitable<Subscription>;
  /** The live subscription, or undefined when it never existed, was removed or has expired. */
  get(id: string): Awaitable<Subscription | undefined>;
  touch(id: string): Awaitable<void>;
  unsubscribe(id: string): Awaitable<Subscription | undefined>;
  take(id: string, limit: number, ackDeadlineMs: number): Awaitable<TopicMessage[]>;
  redeliveryAt(id: string): Awaitable<number | undefined>;
  /** Moves the cursor past the highest delivered message among `ids`; undefined when the subscription is gone. */
  ack(id: string, ids: number[]): Awaitable<{ before: number; cursor: number } | undefined>;
  /** Expires idle subscriptions (those in `receiving` are active) and deletes consumed messages. */
  sweep(receiving: ReadonlySet<string>): Awaitable<Subscription[]>;
}

export type AsyncMethods<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Awaitable<R> : T[K] };

/** Agent memory: the SQLite store's operations, each answered now or later. */
export type AgentMemoryBackend = AsyncMethods<
  Pick<
    AgentMemoryStore,
    'getThread' | 'readWorking' | 'readTurns' | 'setTitle' | 'listThreads' | 'listMemories' | 'search' | 'saveWorking' | 'appendTurns' | 'deleteThread' | 'putMemory' | 'deleteMemory'
  >
>;

import type { TelemetryBatch } from '../delegation/telemetry-ingest.ts';

export interface TelemetryBackend {
  /** Stores one batch; its JSON text is kept as is where the store can (SQLite keeps a batch to a row). */
  append(batch: TelemetryBatch): Awaitable<void>;
  /** Records and bytes of record JSON kept now (bounded by retainRecords and retainBytes). */
  readonly kept: { records: number; bytes: number };
  prune(): Awaitable<void>;
  /** Newest first; pass the smallest id of a page as `beforeId` for the next one. */
  list(options?: { limit?: number; beforeId?: number }): Awaitable<TelemetryRecord[]>;
}

/** A wake-up from another replica: something became receivable under a key there. */
export type Wakeup =
  | { kind: 'queue'; subject: string; group: string }
  | { kind: 'topic'; plane: string; subject: string }
  | { kind: 'unsubscribed'; subscriptionId: string }
  | { kind: 'reply'; replyTo: string }
  /** Wake-ups may have been missed (the listener reconnected): every waiting receive looks again. */
  | { kind: 'all' };

export interface CrossReplicaWakeups {
  /** Listens for wake-ups; returns the unsubscribe function. */
  subscribe(listener: (wakeup: Wakeup) => void): () => void;
}
