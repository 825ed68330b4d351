import type { Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import {
  searchableText,
  threadSummary,
  type AgentMemoryStore,
  type AppendedTurns,
  type CuratedMemory,
  type SearchHit,
  type StoredTurn,
  type ThreadRow,
  type ThreadSummary,
  type WorkingMemory,
  workingConflict,
} from '../agent-memory-store.ts';
import { deleteConflict, writeConflict, type DeleteOutcome, type WriteOutcome } from '../object-versions.ts';
import { truncateWal, type Db } from './sqlite-database.ts';
import type { ObjectVersions } from './sqlite-object-versions.ts';

/**
 * Agent memory in the SQLite file, with text search over turns and memories by SQLite FTS5
 * (BM25 ranking, no embeddings).
 */
export class SqliteAgentMemory implements AgentMemoryStore {
  private readonly thread: Statement<[string, string]>;
  private readonly insertThread: Statement<[string, string, string | null, number, number, number]>;
  private readonly saveWorkingStmt: Statement<[Buffer, number, number, number, string | null, number, string, string]>;
  private readonly appendStmt: Statement<[number, number, string | null, number, string, string]>;
  private readonly insertTurn: Statement<[string, string, number, number, string]>;
  private readonly indexTurn: Statement<[number, string]>;
  private readonly turnsAfter: Statement<[string, string, number, number]>;
  private readonly titleStmt: Statement<[string, string, string]>;
  private readonly memories: Statement<[string, string]>;
  private readonly memory: Statement<[string, string, string]>;
  private readonly insertMemory: Statement<[string, string, string, string, number, number, number]>;
  private readonly updateMemory: Statement<[string, number, number, number]>;
  private readonly indexMemory: Statement<[number, string]>;
  private readonly unindexMemory: Statement<[number]>;
  private readonly deleteMemoryStmt: Statement<[number]>;

  private readonly saveWorkingTx: (agent: string, threadKey: string, userId: string | undefined, bytes: Buffer, expected: number, iteration: number, tokens: number) => WriteOutcome;
  private readonly appendTurnsTx: (agent: string, threadKey: string, userId: string | undefined, turns: string[]) => AppendedTurns;
  private readonly deleteThreadNow: (agent: string, threadKey: string) => boolean;
  private readonly putMemoryTx: (agent: string, userId: string, name: string, content: string, expected: number) => WriteOutcome;
  private readonly deleteMemoryTx: (agent: string, userId: string, name: string, expected: number) => DeleteOutcome;

  constructor(
    private readonly db: Db,
    private readonly versions: ObjectVersions,
    private readonly clock: Clock = systemClock,
  ) {
    this.thread = db.prepare('SELECT * FROM agent_threads WHERE agent_id = ? AND thread_key = ?');
    this.insertThread = db.prepare(
      'INSERT INTO agent_threads (agent_id, thread_key, user_id, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.saveWorkingStmt = db.prepare(
      `UPDATE agent_threads SET working = ?, iteration = ?, tokens = ?, version = ?, user_id = COALESCE(user_id, ?), updated_at = ?
       WHERE agent_id = ? AND thread_key = ?`,
    );
    this.appendStmt = db.prepare(
      `UPDATE agent_threads SET turn_count = ?, version = ?, user_id = COALESCE(user_id, ?), updated_at = ? WHERE agent_id = ? AND thread_key = ?`,
    );
    this.insertTurn = db.prepare('INSERT INTO agent_turns (agent_id, thread_key, seq, created_at, turn) VALUES (?, ?, ?, ?, ?)');
    this.indexTurn = db.prepare('INSERT INTO agent_turn_text (rowid, text) VALUES (?, ?)');
    this.turnsAfter = db.prepare(
      'SELECT seq, created_at AS createdAt, turn FROM agent_turns WHERE agent_id = ? AND thread_key = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    this.titleStmt = db.prepare('UPDATE agent_threads SET title = ? WHERE agent_id = ? AND thread_key = ?');
    this.memories = db.prepare(
      'SELECT name, content, version, created_at AS createdAt, updated_at AS updatedAt FROM agent_memories WHERE agent_id = ? AND user_id = ? ORDER BY name',
    );
    this.memory = db.prepare('SELECT id, version FROM agent_memories WHERE agent_id = ? AND user_id = ? AND name = ?');
    this.insertMemory = db.prepare(
      'INSERT INTO agent_memories (agent_id, user_id, name, content, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.updateMemory = db.prepare('UPDATE agent_memories SET content = ?, version = ?, updated_at = ? WHERE id = ?');
    this.indexMemory = db.prepare('INSERT INTO agent_memory_text (rowid, text) VALUES (?, ?)');
    this.unindexMemory = db.prepare('DELETE FROM agent_memory_text WHERE rowid = ?');
    this.deleteMemoryStmt = db.prepare('DELETE FROM agent_memories WHERE id = ?');

    const deleteTurnText = db.prepare(
      'DELETE FROM agent_turn_text WHERE rowid IN (SELECT id FROM agent_turns WHERE agent_id = ? AND thread_key = ?)',
    );
    const deleteTurns = db.prepare('DELETE FROM agent_turns WHERE agent_id = ? AND thread_key = ?');
    const deleteThreadRow = db.prepare('DELETE FROM agent_threads WHERE agent_id = ? AND thread_key = ?');

    this.saveWorkingTx = db.transaction(
      (agent: string, threadKey: string, userId: string | undefined, bytes: Buffer, expected: number, iteration: number, tokens: number): WriteOutcome => {
      const row = this.thread.get(agent, threadKey) as ThreadRow | undefined;
      const conflict = workingConflict(expected, row);
      if (conflict) return { ok: false, conflict };
      const version = this.versions.next();
      const now = this.clock.now();
      if (!row) this.insertThread.run(agent, threadKey, userId ?? null, version, now, now);
      this.saveWorkingStmt.run(bytes, iteration, tokens, version, userId ?? null, now, agent, threadKey);
      return { ok: true, version, created: row?.working == null };
      },
    );
    this.appendTurnsTx = db.transaction((agent: string, threadKey: string, userId: string | undefined, turns: string[]) => {
      const now = this.clock.now();
      let row = this.thread.get(agent, threadKey) as ThreadRow | undefined;
      const version = this.versions.next();
      if (!row) {
        this.insertThread.run(agent, threadKey, userId ?? null, version, now, now);
        row = { turn_count: 0 } as ThreadRow;
      }
      const assigned: Array<{ seq: number; createdAt: number }> = [];
      let seq = row.turn_count;
      for (const turn of turns) {
        seq++;
        const id = Number(this.insertTurn.run(agent, threadKey, seq, now, turn).lastInsertRowid);
        this.indexTurn.run(id, searchableText(turn));
        assigned.push({ seq, createdAt: now });
      }
      this.appendStmt.run(seq, version, userId ?? null, now, agent, threadKey);
      return { version, turns: assigned };
    });
    const deleteThreadRows = db.transaction((agent: string, threadKey: string) => {
      deleteTurnText.run(agent, threadKey);
      deleteTurns.run(agent, threadKey);
      const deleted = deleteThreadRow.run(agent, threadKey).changes > 0;
      if (deleted) this.versions.rememberDeleted();
      return deleted;
    });
    const purgeTurnIndex = db.prepare(`INSERT INTO agent_turn_text (agent_turn_text) VALUES ('optimize')`);
    // Erases metadata, working memory, turns and their search entries before anyone is told it is
    // gone, and then the copies SQLite would keep: the search index drops the deleted terms
    // (optimize) and the WAL is written back into the zeroed pages and truncated. Deleting a
    // conversation is rare; the cost buys "no copy left" rather than "no copy visible".
    this.deleteThreadNow = (agent, threadKey) => {
      const deleted = deleteThreadRows(agent, threadKey);
      if (deleted) {
        purgeTurnIndex.run();
        truncateWal(db);
      }
      return deleted;
    };
    this.putMemoryTx = db.transaction((agent: string, userId: string, name: string, content: string, expected: number): WriteOutcome => {
      const row = this.memory.get(agent, userId, name) as { id: number; version: number } | undefined;
      const conflict = writeConflict(expected, row?.version);
      if (conflict) return { ok: false, conflict };
      const version = this.versions.next();
      const now = this.clock.now();
      let id: number;
      if (row) {
        this.updateMemory.run(content, version, now, row.id);
        this.unindexMemory.run(row.id);
        id = row.id;
      } else {
        id = Number(this.insertMemory.run(agent, userId, name, content, version, now, now).lastInsertRowid);
      }
      this.indexMemory.run(id, `${name} ${searchableText(content)}`);
      return { ok: true, version, created: !row };
    });
    this.deleteMemoryTx = db.transaction((agent: string, userId: string, name: string, expected: number): DeleteOutcome => {
      const row = this.memory.get(agent, userId, name) as { id: number; version: number } | undefined;
      if (!row) return { ok: true, deleted: false };
      const conflict = deleteConflict(expected, row.version);
      if (conflict) return { ok: false, conflict };
      this.unindexMemory.run(row.id);
      this.deleteMemoryStmt.run(row.id);
      this.versions.rememberDeleted();
      return { ok: true, deleted: true };
    });
  }

  async saveWorking(agent: string, threadKey: string, userId: string | undefined, bytes: Buffer, expected: number, iteration: number, tokens: number): Promise<WriteOutcome> {
    return this.saveWorkingTx(agent, threadKey, userId, bytes, expected, iteration, tokens);
  }

  async appendTurns(agent: string, threadKey: string, userId: string | undefined, turns: string[]): Promise<AppendedTurns> {
    return this.appendTurnsTx(agent, threadKey, userId, turns);
  }

  async deleteThread(agent: string, threadKey: string): Promise<boolean> {
    return this.deleteThreadNow(agent, threadKey);
  }

  async putMemory(agent: string, userId: string, name: string, content: string, expected: number): Promise<WriteOutcome> {
    return this.putMemoryTx(agent, userId, name, content, expected);
  }

  async deleteMemory(agent: string, userId: string, name: string, expected: number): Promise<DeleteOutcome> {
    return this.deleteMemoryTx(agent, userId, name, expected);
  }

  async getThread(agent: string, threadKey: string): Promise<ThreadSummary | undefined> {
    const row = this.thread.get(agent, threadKey) as ThreadRow | undefined;
    return row && threadSummary(row);
  }

  async readWorking(agent: string, threadKey: string): Promise<WorkingMemory | undefined> {
    const row = this.thread.get(agent, threadKey) as ThreadRow | undefined;
    if (!row || row.working === null) return undefined;
    return { bytes: row.working, version: row.version, iteration: row.iteration, tokens: row.tokens };
  }

  async readTurns(agent: string, threadKey: string, afterSeq: number, limit: number): Promise<StoredTurn[]> {
    return this.turnsAfter.all(agent, threadKey, afterSeq, limit) as StoredTurn[];
  }

  async setTitle(agent: string, threadKey: string, title: string): Promise<boolean> {
    return this.titleStmt.run(title, agent, threadKey).changes > 0;
  }

  /** Conversations, most recently active first, after the position `after` of an earlier page. */
  async listThreads(agent: string, userId: string | undefined, after: { updatedAt: number; threadKey: string } | undefined, limit: number): Promise<ThreadSummary[]> {
    const where = ['agent_id = ?'];
    const args: unknown[] = [agent];
    if (userId !== undefined) {
      where.push('user_id = ?');
      args.push(userId);
    }
    if (after) {
      where.push('(updated_at < ? OR (updated_at = ? AND thread_key > ?))');
      args.push(after.updatedAt, after.updatedAt, after.threadKey);
    }
    const sql = `SELECT * FROM agent_threads WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, thread_key LIMIT ?`;
    return (this.db.prepare(sql).all(...args, limit) as ThreadRow[]).map(threadSummary);
  }

  async listMemories(agent: string, userId: string): Promise<CuratedMemory[]> {
    return this.memories.all(agent, userId) as CuratedMemory[];
  }

  /**
   * Turns and memories of the agent matching any word of the query, best BM25 score first.
   * Returns undefined when the query has no word to match.
   */
  async search(agent: string, query: string, userId: string | undefined, limit: number): Promise<SearchHit[] | undefined> {
    const words = query.match(/[\p{L}\p{N}_]+/gu);
    if (!words) return undefined;
    const match = words.map((w) => `"${w}"`).join(' OR ');
    const byUser = userId === undefined ? '' : 'AND th.user_id = ?';
    const turns = this.db
      .prepare(
        `SELECT 'turn' AS kind, -bm25(agent_turn_text) AS score, t.thread_key AS threadKey, th.user_id AS userId, t.seq, t.created_at AS createdAt, t.turn
         FROM agent_turn_text JOIN agent_turns t ON t.id = agent_turn_text.rowid
         JOIN agent_threads th ON th.agent_id = t.agent_id AND th.thread_key = t.thread_key
         WHERE agent_turn_text MATCH ? AND t.agent_id = ? ${byUser} ORDER BY bm25(agent_turn_text) LIMIT ?`,
      )
      .all(match, agent, ...(userId === undefined ? [] : [userId]), limit) as SearchHit[];
    const memories = this.db
      .prepare(
        `SELECT 'memory' AS kind, -bm25(agent_memory_text) AS score, m.user_id AS userId, m.name, m.content, m.updated_at AS updatedAt
         FROM agent_memory_text JOIN agent_memories m ON m.id = agent_memory_text.rowid
         WHERE agent_memory_text MATCH ? AND m.agent_id = ? ${userId === undefined ? '' : 'AND m.user_id = ?'} ORDER BY bm25(agent_memory_text) LIMIT ?`,
      )
      .all(match, agent, ...(userId === undefined ? [] : [userId]), limit) as SearchHit[];
    return [...turns, ...memories].sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
