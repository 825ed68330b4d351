import type { Statement } from 'better-sqlite3';
import type { AgentInfo, ConversationInfo } from '../../../shared/platform-views.ts';
import type { AgentMemoryStore, CuratedMemory, SearchHit, StoredTurn } from '../store/agent-memory-store.ts';
import type { Db } from '../store/database.ts';

/** An agent with its counts and newest write (to a conversation or memory), as the studio lists it. */
export type AgentCounts = AgentInfo;

/** A conversation as stored: userId and title may be missing (null in the table). */
type ConversationRow = Omit<ConversationInfo, 'userId' | 'title'> & { userId: string | null; title: string | null };

export interface UserMemory extends CuratedMemory {
  userId: string;
}

const MAX_CONVERSATIONS = 1_000;

/**
 * Read-only views of agent memory for the studio: agents, their conversations with turns and
 * working-memory size, curated memories per person, and the store's own text search. Deleting a
 * conversation goes through the store call the DELETE route uses, which also erases its search
 * entries.
 */
export class AgentInspection {
  private readonly agentsStmt: Statement<[]>;
  private readonly conversationsStmt: Statement<[string, number]>;
  private readonly conversationStmt: Statement<[string, string]>;
  private readonly memoriesStmt: Statement<[string]>;

  constructor(
    db: Db,
    private readonly store: AgentMemoryStore,
  ) {
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

  agents(): AgentCounts[] {
    return this.agentsStmt.all() as AgentCounts[];
  }

  /** Conversations of an agent, most recently active first. */
  conversations(agentId: string, limit = MAX_CONVERSATIONS): ConversationInfo[] {
    return (this.conversationsStmt.all(agentId, Math.min(Math.max(1, limit), MAX_CONVERSATIONS)) as ConversationRow[]).map(conversationInfo);
  }

  /** A conversation with the size of its working memory (never its bytes: they are the agent's own state). */
  conversation(agentId: string, threadKey: string): ConversationInfo | undefined {
    const row = this.conversationStmt.get(agentId, threadKey) as ConversationRow | undefined;
    return row && conversationInfo(row);
  }

  /** Turns in order after `afterSeq`, as stored (JSON text of each turn). */
  turns(agentId: string, threadKey: string, afterSeq = 0, limit = 500): StoredTurn[] {
    return this.store.readTurns(agentId, threadKey, afterSeq, Math.min(Math.max(1, limit), 1000));
  }

  /** Curated memories of every person the agent remembers things about. */
  memories(agentId: string): UserMemory[] {
    return this.memoriesStmt.all(agentId) as UserMemory[];
  }

  /** The platform's own search (FTS5, BM25); undefined when the query has no word to match. */
  search(agentId: string, query: string, userId?: string, limit = 20): SearchHit[] | undefined {
    return this.store.search(agentId, query, userId, Math.min(Math.max(1, limit), 100));
  }

  /** Erases the conversation (metadata, working memory, turns, search entries); false when there was none. */
  deleteConversation(agentId: string, threadKey: string): boolean {
    return this.store.deleteThread(agentId, threadKey);
  }
}

/** The studio's ConversationInfo: a missing user or title is absent rather than null. */
function conversationInfo({ userId, title, ...rest }: ConversationRow): ConversationInfo {
  return { ...rest, ...(userId !== null ? { userId } : {}), ...(title !== null ? { title } : {}) };
}
