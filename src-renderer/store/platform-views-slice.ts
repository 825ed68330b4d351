import type { StateCreator } from 'zustand';
import type { StudioState } from './studio-store.ts';

export type QueuesTab = 'queues' | 'topics';
export type StorageTab = 'kv' | 'leases' | 'agents';
/** The platform views that can be scrubbed back in time, each on its own. */
export type PlatformView = 'queues' | 'topics' | 'kv' | 'leases';

export interface PlatformViewsSlice {
  queuesTab: QueuesTab;
  /** The subject and consumer group whose timeline is open; group undefined is every group. */
  queueSelection: { subject?: string; group?: string };
  topicSelection: { plane?: string; subject?: string };
  storageTab: StorageTab;
  kvSelection: { namespace?: string; key?: string };
  agentSelection: { agentId?: string; threadKey?: string };
  /**
   * The moment each platform view shows; undefined is now (live). Each view has its own, so
   * looking back at a queue never freezes the KV browser or the leases.
   */
  platformAt: Record<PlatformView, number | undefined>;
  setQueuesTab(tab: QueuesTab): void;
  selectQueue(subject: string | undefined, group?: string): void;
  selectTopic(plane: string | undefined, subject?: string): void;
  setStorageTab(tab: StorageTab): void;
  selectKv(namespace: string | undefined, key?: string): void;
  selectAgent(agentId: string | undefined, threadKey?: string): void;
  setPlatformAt(view: PlatformView, at: number | undefined): void;
}

export const createPlatformViewsSlice: StateCreator<StudioState, [], [], PlatformViewsSlice> = (set) => ({
  queuesTab: 'queues',
  queueSelection: {},
  topicSelection: {},
  storageTab: 'kv',
  kvSelection: {},
  agentSelection: {},
  platformAt: { queues: undefined, topics: undefined, kv: undefined, leases: undefined },
  setQueuesTab: (queuesTab) => set({ queuesTab }),
  selectQueue: (subject, group) => set({ queueSelection: { subject, group } }),
  selectTopic: (plane, subject) => set({ topicSelection: { plane, subject } }),
  setStorageTab: (storageTab) => set({ storageTab }),
  selectKv: (namespace, key) => set({ kvSelection: { namespace, key } }),
  selectAgent: (agentId, threadKey) => set({ agentSelection: { agentId, threadKey } }),
  setPlatformAt: (view, at) => set((s) => ({ platformAt: { ...s.platformAt, [view]: at } })),
});
