import type { AgentInfo, ConversationInfo } from '../../../shared/platform-views.ts';
import type { SearchHit, StoredTurn } from '../store/agent-memory-store.ts';
import type { ConversationRow, InspectionStore, UserMemory } from '../store/inspection-store.ts';
import type { AgentMemoryStore } from '../store/agent-memory-store.ts';

export type { UserMemory } from '../store/inspection-store.ts';

/** An agent with its counts and newest write (to a conversation or memory), as the studio lists it. */
export type AgentCounts = AgentInfo;

const MAX_CONVERSATIONS = 1_000;

/**
 * Read-only views of agent memory for the studio: agents, their conversations with turns and
 * working-memory size, curated memories per person, and the store's own text search. Deleting a
 * conversation goes through the store call the DELETE route uses, which also erases its search
 * entries.
 */
export class AgentInspection {
  constructor(
    private readonly reads: InspectionStore,
    private readonly store: AgentMemoryStore,
  ) {}

  async agents(): Promise<AgentCounts[]> {
    return this.reads.agents();
  }

  /** Conversations of an agent, most recently active first. */
  async conversations(agentId: string, limit = MAX_CONVERSATIONS): Promise<ConversationInfo[]> {
    return (await this.reads.conversations(agentId, Math.min(Math.max(1, limit), MAX_CONVERSATIONS))).map(conversationInfo);
  }

  /** A conversation with the size of its working memory (never its bytes: they are the agent's own state). */
  async conversation(agentId: string, threadKey: string): Promise<ConversationInfo | undefined> {
    const row = await this.reads.conversation(agentId, threadKey);
    return row && conversationInfo(row);
  }

  /** Turns in order after `afterSeq`, as stored (JSON text of each turn). */
  async turns(agentId: string, threadKey: string, afterSeq = 0, limit = 500): Promise<StoredTurn[]> {
    return this.store.readTurns(agentId, threadKey, afterSeq, Math.min(Math.max(1, limit), 1000));
  }

  /** Curated memories of every person the agent remembers things about. */
  async memories(agentId: string): Promise<UserMemory[]> {
    return this.reads.memories(agentId);
  }

  /** The platform's own search (SQLite FTS5 with BM25, PostgreSQL full-text search); undefined when the query has no word to match. */
  async search(agentId: string, query: string, userId?: string, limit = 20): Promise<SearchHit[] | undefined> {
    return this.store.search(agentId, query, userId, Math.min(Math.max(1, limit), 100));
  }

  /** Erases the conversation (metadata, working memory, turns, search entries); false when there was none. */
  async deleteConversation(agentId: string, threadKey: string): Promise<boolean> {
    return this.store.deleteThread(agentId, threadKey);
  }
}

/** The studio's ConversationInfo: a missing user or title is absent rather than null. */
function conversationInfo({ userId, title, ...rest }: ConversationRow): ConversationInfo {
  return { ...rest, ...(userId !== null ? { userId } : {}), ...(title !== null ? { title } : {}) };
}
