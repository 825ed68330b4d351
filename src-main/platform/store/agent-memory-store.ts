import { writeConflict, type DeleteOutcome, type WriteOutcome } from './object-versions.ts';

export interface ThreadSummary {
  threadKey: string;
  userId: string | null;
  title: string | null;
  version: number;
  turnCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface WorkingMemory {
  bytes: Buffer;
  version: number;
  iteration: number;
  tokens: number;
}

export interface StoredTurn {
  seq: number;
  createdAt: number;
  /** The turn as the client sent it, JSON text of an object. */
  turn: string;
}

export interface CuratedMemory {
  name: string;
  content: string;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export type SearchHit =
  | { kind: 'turn'; score: number; threadKey: string; userId: string | null; seq: number; createdAt: number; turn: string }
  | { kind: 'memory'; score: number; userId: string; name: string; content: string; updatedAt: number };

export interface AppendedTurns {
  version: number;
  turns: Array<{ seq: number; createdAt: number }>;
}

/**
 * Agent memory (§4.5): conversations addressed by agent and thread key, each with opaque working
 * memory, an append-only turn record and a title; curated memories per person; text search over
 * turns and memories. A conversation has one version: a working-memory save and a turn append
 * both move it, so the version an append returns is the one the next save must send. Deleting a
 * conversation erases it with its search entries.
 */
export interface AgentMemoryStore {
  getThread(agent: string, threadKey: string): Promise<ThreadSummary | undefined>;
  readWorking(agent: string, threadKey: string): Promise<WorkingMemory | undefined>;
  readTurns(agent: string, threadKey: string, afterSeq: number, limit: number): Promise<StoredTurn[]>;
  /** False when there is no such conversation. */
  setTitle(agent: string, threadKey: string, title: string): Promise<boolean>;
  /** Conversations, most recently active first, after the position `after` of an earlier page. */
  listThreads(agent: string, userId: string | undefined, after: { updatedAt: number; threadKey: string } | undefined, limit: number): Promise<ThreadSummary[]>;
  listMemories(agent: string, userId: string): Promise<CuratedMemory[]>;
  /** Turns and memories matching any word of the query, best first; undefined when the query has no word. */
  search(agent: string, query: string, userId: string | undefined, limit: number): Promise<SearchHit[] | undefined>;
  saveWorking(agent: string, threadKey: string, userId: string | undefined, bytes: Buffer, expected: number, iteration: number, tokens: number): Promise<WriteOutcome>;
  appendTurns(agent: string, threadKey: string, userId: string | undefined, turns: string[]): Promise<AppendedTurns>;
  /** False when there was no such conversation. */
  deleteThread(agent: string, threadKey: string): Promise<boolean>;
  putMemory(agent: string, userId: string, name: string, content: string, expected: number): Promise<WriteOutcome>;
  deleteMemory(agent: string, userId: string, name: string, expected: number): Promise<DeleteOutcome>;
}

/** A conversation row as both backends store it. */
export interface ThreadRow {
  thread_key: string;
  user_id: string | null;
  title: string | null;
  version: number;
  working: Buffer | null;
  iteration: number;
  tokens: number;
  turn_count: number;
  created_at: number;
  updated_at: number;
}

export function threadSummary(row: ThreadRow): ThreadSummary {
  return {
    threadKey: row.thread_key,
    userId: row.user_id,
    title: row.title,
    version: row.version,
    turnCount: row.turn_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Every string inside a JSON text, joined: what text search matches against. */
export function searchableText(json: string): string {
  const parts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(json));
  return parts.join(' ');
}

/**
 * Why a working-memory save with `expected` may not proceed against the conversation `row`, or
 * undefined when it may: 0 creates working memory (the conversation may exist with turns only), a
 * positive version must be the conversation's.
 */
export function workingConflict(expected: number, row: ThreadRow | undefined): string | undefined {
  if (expected !== 0) return writeConflict(expected, row?.version);
  return row?.working != null ? `working memory already exists at version ${row.version}; send X-Object-Version: ${row.version} to replace it` : undefined;
}
