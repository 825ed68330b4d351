import type { HistoryWindow } from '../../../shared/platform-views.ts';
import type { PlatformViewsApi } from '../../../shared/studio-api.ts';

const unavailable = async (): Promise<never> => {
  throw new Error('the platform views need the embedded platform, and this studio runs without one');
};

/** Empty answers for the platform panels, for backends without an embedded platform (transport tests). */
export function platformViewStubs(): PlatformViewsApi {
  const window = (): HistoryWindow => ({ minutes: 15, from: Date.now() - 15 * 60_000, to: Date.now() });
  return {
    queueView: async () => ({ at: Date.now(), live: true, groups: [], timeline: [], history: window() }),
    queueMessage: async () => null,
    peekQueue: async () => [],
    publishQueueMessage: unavailable,
    purgeQueue: unavailable,
    topicView: async () => ({ at: Date.now(), live: true, streams: [], timeline: [], history: window() }),
    publishTopicMessage: unavailable,
    deleteTopicSubscription: unavailable,
    kvView: async () => ({ at: Date.now(), live: true, namespaces: [], keys: [], keysCut: false, writes: [], history: window() }),
    kvEntry: async () => null,
    writeKvEntry: unavailable,
    deleteKvEntry: unavailable,
    setPlatformSecret: unavailable,
    leaseView: async () => ({ at: Date.now(), live: true, holders: [], history: [], historyWindow: window() }),
    agentView: async () => ({ agents: [], conversations: [], memories: [] }),
    agentConversation: async () => null,
    searchAgentMemory: async () => [],
    deleteAgentConversation: unavailable,
    platformHistory: async () => window(),
    setPlatformHistory: async () => window(),
  };
}
