import type { LogSink } from '../core/logger.ts';
import type { TraceHub } from '../core/trace.ts';
import type { Identity } from './api-config.ts';
import type { CapabilityName, CapabilityStatus } from './capability.ts';

export type { Identity } from './api-config.ts';
export type { CapabilityName, CapabilityStatus } from './capability.ts';

/**
 * The capabilities a runtime delegates to its platform (spec 1). The `api` module implements it
 * over the delegation API; `noPlatformServices` is what a runtime has without one (every
 * capability off, with the default unsupported policies).
 *
 * Whoever selects the services closes them, after the runtimes using them have stopped: a hot
 * reload hands one services instance from the old runtime to the new one.
 */
export interface PlatformServices {
  /** Named in the startup log, e.g. `api (flow-platform 0.1.0)`. */
  readonly implementation: string;
  readonly identity: Identity;
  readonly kv: KvStore;
  readonly secrets: SecretStore;
  readonly resources: ResourceStore;
  readonly leases: LeaseService;
  readonly leader: LeaderElection;
  readonly queues: QueueService;
  readonly topics: TopicService;
  readonly agentMemory: AgentMemory;
  readonly telemetry: Telemetry;
  /** Whether a capability is usable now and, when not, why and what its calls do. */
  capability(name: CapabilityName): CapabilityStatus;
  /**
   * The error a definition needing this capability should fail to load with, when the platform
   * said it is off and its policy refuses calls (leases for `lock`, leaderElection for `leader`).
   */
  refusalAtLoad(name: CapabilityName, what: string): string | undefined;
  close(): Promise<void>;
}

/* ---------- Storage ---------- */

export interface KvEntry {
  value: Uint8Array;
  version: number;
}

export interface KvWriteOptions {
  /**
   * 0 creates and fails on an existing entry; a positive value must equal the stored version.
   * Absent: write whatever is there (read the version, write, repeat on a conflict).
   */
  expectedVersion?: number;
  /** The run making the write, sent as X-Flow-Run-Id (shared/run-id-header.ts). */
  runId?: string;
}

/** Options of a lease acquisition. */
export interface LeaseOptions {
  /** The run asking, sent as X-Flow-Run-Id on the acquire and the release. */
  runId?: string;
}

/** Key/value entries by namespace (`user`, `system`, `*_volatile`, `*_secrets`). */
export interface KvStore {
  /** Undefined is a miss. */
  get(namespace: string, key: string): Promise<KvEntry | undefined>;
  /** Returns the new version; a conflict throws VersionConflictError. */
  put(namespace: string, key: string, value: Uint8Array, options?: KvWriteOptions): Promise<number>;
  /** Deleting an absent entry succeeds. */
  delete(namespace: string, key: string, options?: KvWriteOptions): Promise<void>;
  /** The largest value the platform accepts, when it declared one. */
  readonly maxValueBytes: number | undefined;
}

export type SecretScope = 'user' | 'system';

/** Secrets are KV entries in `<scope>_secrets`, refused when the platform does not keep secrets. */
export interface SecretStore {
  read(name: string, scope?: SecretScope): Promise<string | undefined>;
}

export type ResourceKind = 'env' | 'template';

/** Integration resources, read once per generation (one runtime's lifetime); undefined is missing. */
export interface ResourceStore {
  read(kind: ResourceKind, name: string): Promise<string | undefined>;
  /**
   * The env resources frozen in the snapshot this runtime runs (`FLOW_SNAPSHOT_ID`), in declared
   * order; undefined for a runtime without a snapshot.
   */
  snapshotEnvResources?(): Promise<string[] | undefined>;
}

/* ---------- Coordination ---------- */

export interface LeaseService {
  /** Tries once and never blocks: undefined when someone else holds the name. */
  acquire(name: string, ttlMs: number, options?: LeaseOptions): Promise<HeldLease | undefined>;
}

/** A claim kept alive by renewing about three times per TTL until released or lost. */
export interface HeldLease {
  readonly name: string;
  readonly leaseId: string;
  /** Aborted when the claim is lost: renewal refused (404/409) or the TTL passed without one. */
  readonly lost: AbortSignal;
  /** Best effort: a failure only means the name waits out its TTL. */
  release(): Promise<void>;
}

export interface LeaderElection {
  /** Campaigns for `key` until the candidacy stops; `onChange` hears every gain and loss. */
  join(key: string, onChange: (leading: boolean) => void): Candidacy;
}

export interface Candidacy {
  readonly leading: boolean;
  /** Stops campaigning and resigns when leading (best effort). */
  stop(): Promise<void>;
}

/* ---------- Messaging ---------- */

export interface Delivery {
  /** Settles the delivery (ack, nack). */
  handle: string;
  messageId?: string;
  body: unknown;
  headers: Record<string, string>;
  deliveryCount: number;
  /** Present on a request: the reply goes to this address. */
  replyTo?: string;
}

export interface QueueReply {
  body: unknown;
  headers: Record<string, string>;
}

export interface ReceiveOptions {
  waitMs: number;
  maxMessages: number;
  signal?: AbortSignal;
}

export interface QueueService {
  /** Whether /request and /reply exist (`features.queues.requestReply`). */
  readonly requestReply: boolean;
  readonly pollTimeoutMs: number;
  readonly maxBatch: number;
  /** Point to point; never retried. */
  publish(subject: string, body: unknown, headers?: Record<string, string>): Promise<void>;
  /** Resolves to the reply; 503 (nobody consuming) and 504 (no reply in time) throw a QueueRequestError. */
  request(subject: string, body: unknown, options: { timeoutMs: number; headers?: Record<string, string> }): Promise<QueueReply>;
  /** Long-polls for this deployment's consumer group; empty when the window passed. */
  receive(subject: string, options: ReceiveOptions): Promise<Delivery[]>;
  ack(subject: string, handles: string[]): Promise<void>;
  nack(subject: string, handles: string[], delayMs: number): Promise<void>;
  /**
   * Keeps deliveries invisible for `seconds` more from now while their run is paused in a
   * debugger. False when the platform has no such route (it is this platform's extension).
   */
  extend?(subject: string, handles: string[], seconds: number): Promise<boolean>;
  reply(replyTo: string, body: unknown, headers?: Record<string, string>): Promise<void>;
}

export interface TopicService {
  readonly pollTimeoutMs: number;
  readonly maxBatch: number;
  publish(subject: string, body: unknown, options?: { system?: boolean; headers?: Record<string, string> }): Promise<void>;
  /** A subscription whose cursor starts at the end of the stream. */
  subscribe(subject: string, options?: { system?: boolean }): Promise<TopicSubscription>;
}

export interface TopicSubscription {
  readonly id: string;
  /** Empty when the window passed; a subscription the platform expired is renewed (and says so). */
  receive(options: ReceiveOptions): Promise<Delivery[]>;
  ack(handles: string[]): Promise<void>;
  /**
   * Keeps in-flight deliveries for `seconds` more from now while their run is paused in a
   * debugger. False when the platform has no such route (it is this platform's extension).
   */
  extend?(handles: string[], seconds: number): Promise<boolean>;
  /** Deletes the subscription (404 is success). */
  close(): Promise<void>;
}

/* ---------- Agent memory ---------- */

/** Per call: the conversation's person and the opaque agent context header (never logged). */
export interface AgentCallOptions {
  userId?: string;
  /** Forwarded as X-Flow-Agent-Context: base64url of a compact JSON object of strings. */
  context?: Record<string, string>;
}

export interface WorkingMemory {
  data: Uint8Array;
  version: number;
  iteration: number;
  tokens: number;
}

export interface AgentFeatures {
  semantic: boolean;
  listThreads: boolean;
  readThread: boolean;
  search: boolean;
}

export interface AgentMemory {
  readonly features: AgentFeatures;
  /** Undefined: nothing saved yet, resume from nothing. */
  loadWorking(agentId: string, threadKey: string, options?: AgentCallOptions): Promise<WorkingMemory | undefined>;
  /** Returns the new version; `version` 0 creates. */
  saveWorking(
    agentId: string,
    threadKey: string,
    data: Uint8Array,
    options: AgentCallOptions & { version: number; iteration?: number; tokens?: number },
  ): Promise<number>;
  /** Append-only; the server assigns seq and createdAt. Resolves to the body the server answered. */
  appendTurns(agentId: string, threadKey: string, turns: unknown[], options?: AgentCallOptions): Promise<unknown>;
  listThreads(agentId: string, options?: AgentCallOptions & { cursor?: string; limit?: number }): Promise<unknown>;
  /** Undefined when there is no such conversation. */
  readThread(agentId: string, threadKey: string, options?: AgentCallOptions & { cursor?: string; limit?: number }): Promise<unknown>;
  deleteThread(agentId: string, threadKey: string, options?: AgentCallOptions): Promise<void>;
  setTitle(agentId: string, threadKey: string, title: string, options?: AgentCallOptions): Promise<void>;
  listMemories(agentId: string, userId: string, options?: AgentCallOptions): Promise<unknown>;
  putMemory(agentId: string, userId: string, name: string, content: unknown, options: AgentCallOptions & { version: number }): Promise<number>;
  deleteMemory(agentId: string, userId: string, name: string, options?: AgentCallOptions): Promise<void>;
  search(agentId: string, request: Record<string, unknown>, options?: AgentCallOptions): Promise<unknown>;
}

/* ---------- Telemetry ---------- */

export interface Telemetry {
  /** Ships the hub's trace events while attached (only when the platform takes traces). */
  attachTraces(hub: TraceHub): () => void;
  /** Queues log records for shipping; bounded, dropping records when full, never blocking. */
  readonly logSink: LogSink;
  /** Trace records dropped so far (export queue full under overload, or an export failed). */
  tracesDropped?(): number;
}

export { noPlatformServices } from './no-platform.ts';
