import type { AgentMemoryStore } from './agent-memory-store.ts';
import type { SecretNameStore, SecretValues } from './cluster-secret-store.ts';
import type { DeploymentStore } from './deployment-store.ts';
import type { InspectionStore } from './inspection-store.ts';
import type { IntegrationStore } from './integration-store.ts';
import type { KvStore } from './kv-store.ts';
import type { LeaseStore } from './lease-store.ts';
import type { QueueStore } from './queue-store.ts';
import type { ResourceStore } from './resource-store.ts';
import type { SnapshotStore } from './snapshot-store.ts';
import type { Retention, TelemetryKind, TelemetryStore } from './telemetry-store.ts';
import type { TopicStore } from './topic-store.ts';

/**
 * The store seam: what the delegation and management semantics need from storage, one interface
 * per capability, implemented side by side by SQLite (store/sqlite/: the embedded default, one
 * process) and PostgreSQL (store/postgres/: any number of platform replicas sharing one
 * database). Every call answers with a promise on both. Routes never know which one they run on;
 * every rule of the contract that depends on state shared between replicas (versions, fencing,
 * visibility deadlines, cursors) lives behind it.
 */
export interface PlatformStore {
  readonly kind: 'sqlite' | 'postgres';
  readonly kv: KvStore;
  readonly resources: ResourceStore;
  readonly leases: LeaseStore;
  readonly queues: QueueStore;
  readonly topics: TopicStore;
  readonly agentMemory: AgentMemoryStore;
  readonly traces: TelemetryStore;
  readonly logs: TelemetryStore;
  /** Integrations, tags and snapshots, cluster secret names, deployments. */
  readonly management: ManagementStore;
  /** Bulk reads for the studio's platform views (platform/inspect/). */
  readonly inspection: InspectionStore;
  /** Wake-ups from other replicas (a publish there, a reply there); absent on a single-process store. */
  readonly wakeups?: CrossReplicaWakeups;
  close(): Promise<void>;
}

/** What a store is opened with, besides where it lives (the server takes it from the effective features). */
export interface StoreSettings {
  /** How many trace and log records, bytes and seconds are kept. */
  retention: Record<TelemetryKind, Retention>;
  /** A topic subscription with no receive or ack for this long expires. */
  subscriptionIdleMs: number;
}

/**
 * The management side of the seam (spec 2 §2.11, §3.2, §4.2–4.4). Each write that must be atomic
 * (a bundle replacing the working copy, a tag freezing it) is one call, one transaction.
 */
export interface ManagementStore {
  readonly integrations: IntegrationStore;
  readonly snapshots: SnapshotStore;
  readonly secretNames: SecretNameStore;
  readonly deployments: DeploymentStore;
  /**
   * Where cluster secret values live when the store keeps them itself (PostgreSQL: sealed with
   * the platform's secret key, shared by the replicas). Absent: the sealed `flow-secrets` file
   * in the data directory. A Kubernetes backend, when configured, wins over both.
   */
  readonly secretValues?: SecretValues;
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
