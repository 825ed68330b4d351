import type { PlatformContext } from '../delegation/platform-context.ts';
import type { QueueDispatch } from '../delegation/queue-dispatch.ts';
import type { TopicRoutes } from '../delegation/topics.ts';
import type { PlatformStore } from '../store/platform-store.ts';
import { AgentInspection } from './agent-inspection.ts';
import { KvInspection } from './kv-inspection.ts';
import { LeaseInspection } from './lease-inspection.ts';
import { QueueInspection } from './queue-inspection.ts';
import { TopicInspection } from './topic-inspection.ts';

/**
 * What the studio's platform panels read from the store, in process: queues, topics, KV,
 * leases and agent memory as stored now, on SQLite or PostgreSQL (the store's
 * InspectionStore). Reads never change state; the few writes (test publishes, purge,
 * subscription delete, versioned KV edits, conversation delete) go through the store calls the
 * delegation routes use and emit the same feed events.
 */
export interface PlatformInspection {
  readonly queues: QueueInspection;
  readonly topics: TopicInspection;
  readonly kv: KvInspection;
  readonly leases: LeaseInspection;
  readonly agents: AgentInspection;
}

export interface InspectionParts {
  store: PlatformStore;
  context: PlatformContext;
  dispatch: QueueDispatch;
  topicRoutes: TopicRoutes;
}

export function createPlatformInspection({ store, context: p, dispatch, topicRoutes }: InspectionParts): PlatformInspection {
  const reads = store.inspection;
  return {
    queues: new QueueInspection(reads, store.queues, dispatch, p.events, p.features, p.clock),
    topics: new TopicInspection(reads, store.topics, topicRoutes, p.events, p.features, p.clock),
    kv: new KvInspection(reads, store.kv, p.events, p.features, p.clock),
    leases: new LeaseInspection(reads),
    agents: new AgentInspection(reads, store.agentMemory),
  };
}
