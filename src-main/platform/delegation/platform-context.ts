import { type Clock } from '../../../shared/clock.ts';
import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import type { AgentMemoryStore } from '../store/agent-memory-store.ts';
import type { KvStore } from '../store/kv-store.ts';
import type { LeaseStore } from '../store/lease-store.ts';
import type { QueueStore } from '../store/queue-store.ts';
import type { ResourceStore } from '../store/resource-store.ts';
import type { TelemetryStore } from '../store/telemetry-store.ts';
import type { TopicStore } from '../store/topic-store.ts';

/**
 * What the delegation routes share: the effective features, the store seam's parts (SQLite or
 * PostgreSQL; the routes cannot tell) and the live feed.
 */
export interface PlatformContext {
  features: Features;
  events: PlatformEventFeed;
  kv: KvStore;
  resources: ResourceStore;
  leases: LeaseStore;
  queues: QueueStore;
  topics: TopicStore;
  agentMemory: AgentMemoryStore;
  traces: TelemetryStore;
  logs: TelemetryStore;
  implementation: { name: string; version: string };
  /**
   * What the routes read the time from (event timestamps, long-poll windows, reply timeouts).
   * The SQLite store decides TTLs and deadlines with the same clock; PostgreSQL decides them
   * with the database's clock instead (see postgres-leases.ts).
   */
  clock: Clock;
}

