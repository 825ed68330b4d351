import type pg from 'pg';
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
import { inTransaction } from './postgres-connection.ts';

const THREAD_COLUMNS = 'thread_key, user_id, title, version, working, iteration, tokens, turn_count, created_at, updated_at';

/**
 * Agent memory on PostgreSQL, with the SQLite store's rules: one version per conversation (a
 * save and an append both move it; versions from the shared sequence), turns append-only with
 * server-assigned `seq`, curated memories with compare-and-set. Writes to one conversation
 * serialize on a transaction-scoped advisory lock, so replicas cannot interleave a save and an
 * append. Search is PostgreSQL full-text search: `simple` configuration (lower-cased words, no
 * stemming, like SQLite's FTS5 default), any word of the query matches, ranked by ts_rank.
 */
export class PostgresAgentMemory implements AgentMemoryStore {
  constructor(private readonly pool: pg.Pool) {}

  async getThread(agent: string, threadKey: string): Promise<ThreadSummary | undefined> {
    const row = await this.thread(this.pool, agent, threadKey);
    return row && threadSummary(row);
  }

  async readWorking(agent: string, threadKey: string): Promise<WorkingMemory | undefined> {
    const row = await this.thread(this.pool, agent, threadKey);
    if (!row || row.working === null) return undefined;
    return { bytes: row.working, version: row.version, iteration: row.iteration, tokens: row.tokens };
  }

  async readTurns(agent: string, threadKey: string, afterSeq: number, limit: number): Promise<StoredTurn[]> {
    const { rows } = await this.pool.query<StoredTurn>(
      'SELECT seq, created_at AS "createdAt", turn FROM agent_turns WHERE agent_id = $1 AND thread_key = $2 AND seq > $3 ORDER BY seq LIMIT $4',
      [agent, threadKey, afterSeq, limit],
    );
    return rows;
  }

  async setTitle(agent: string, threadKey: string, title: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE agent_threads SET title = $1 WHERE agent_id = $2 AND thread_key = $3', [title, agent, threadKey]);
    return (rowCount ?? 0) > 0;
  }

  async listThreads(agent: string, userId: string | undefined, after: { updatedAt: number; threadKey: string } | undefined, limit: number): Promise<ThreadSummary[]> {
    const where = ['agent_id = $1'];
    const args: unknown[] = [agent];
    if (userId !== undefined) {
      args.push(userId);
      where.push(`user_id = $${args.length}`);
    }
    if (after) {
      args.push(after.updatedAt, after.threadKey);
      where.push(`(updated_at < $${args.length - 1} OR (updated_at = $${args.length - 1} AND thread_key > $${args.length}))`);
    }
    args.push(limit);
    const { rows } = await this.pool.query<ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM agent_threads WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, thread_key LIMIT $${args.length}`,
      args,
    );
    return rows.map(threadSummary);
  }

  async listMemories(agent: string, userId: string): Promise<CuratedMemory[]> {
    const { rows } = await this.pool.query<CuratedMemory>(
      `SELECT name, content, version, created_at AS "createdAt", updated_at AS "updatedAt" FROM agent_memories
       WHERE agent_id = $1 AND user_id = $2 ORDER BY name`,
      [agent, userId],
    );
    return rows;
  }

  async search(agent: string, query: string, userId: string | undefined, limit: number): Promise<SearchHit[] | undefined> {
    const words = query.match(/[\p{L}\p{N}_]+/gu);
    if (!words) return undefined;
    // Each word quoted as a lexeme, OR-ed: any word matches, as with the SQLite store.
    const tsquery = `to_tsquery('simple', array_to_string(ARRAY(SELECT quote_literal(w) FROM unnest($1::text[]) w), ' | '))`;
    const turns = await this.pool.query<SearchHit>(
      `SELECT 'turn' AS kind, ts_rank(t.search, q) AS score, t.thread_key AS "threadKey", th.user_id AS "userId", t.seq, t.created_at AS "createdAt", t.turn
       FROM agent_turns t CROSS JOIN ${tsquery} q
       JOIN agent_threads th ON th.agent_id = t.agent_id AND th.thread_key = t.thread_key
       WHERE t.search @@ q AND t.agent_id = $2 AND ($3::text IS NULL OR th.user_id = $3) ORDER BY score DESC, t.id LIMIT $4`,
      [words, agent, userId ?? null, limit],
    );
    const memories = await this.pool.query<SearchHit>(
      `SELECT 'memory' AS kind, ts_rank(m.search, q) AS score, m.user_id AS "userId", m.name, m.content, m.updated_at AS "updatedAt"
       FROM agent_memories m CROSS JOIN ${tsquery} q
       WHERE m.search @@ q AND m.agent_id = $2 AND ($3::text IS NULL OR m.user_id = $3) ORDER BY score DESC, m.id LIMIT $4`,
      [words, agent, userId ?? null, limit],
    );
    return [...turns.rows, ...memories.rows].sort((a, b) => b.score - a.score).slice(0, limit);
  }

  saveWorking(agent: string, threadKey: string, userId: string | undefined, bytes: Buffer, expected: number, iteration: number, tokens: number): Promise<WriteOutcome> {
    return inTransaction(this.pool, async (c) => {
      await lockThread(c, agent, threadKey);
      const row = await this.thread(c, agent, threadKey);
      const conflict = workingConflict(expected, row);
      if (conflict) return { ok: false, conflict };
      const { rows } = await c.query<{ version: number }>(
        `INSERT INTO agent_threads (agent_id, thread_key, user_id, version, working, iteration, tokens, created_at, updated_at)
         VALUES ($1, $2, $3, nextval('object_version'), $4, $5, $6, flow_now_ms(), flow_now_ms())
         ON CONFLICT (agent_id, thread_key) DO UPDATE SET working = excluded.working, iteration = excluded.iteration, tokens = excluded.tokens,
           version = excluded.version, user_id = COALESCE(agent_threads.user_id, excluded.user_id), updated_at = excluded.updated_at
         RETURNING version`,
        [agent, threadKey, userId ?? null, bytes, iteration, tokens],
      );
      return { ok: true, version: rows[0].version, created: row?.working == null };
    });
  }

  appendTurns(agent: string, threadKey: string, userId: string | undefined, turns: string[]): Promise<AppendedTurns> {
    return inTransaction(this.pool, async (c) => {
      await lockThread(c, agent, threadKey);
      const { rows } = await c.query<{ version: number; turn_count: number; now: number }>(
        `INSERT INTO agent_threads (agent_id, thread_key, user_id, version, turn_count, created_at, updated_at)
         VALUES ($1, $2, $3, nextval('object_version'), $4, flow_now_ms(), flow_now_ms())
         ON CONFLICT (agent_id, thread_key) DO UPDATE SET version = excluded.version, user_id = COALESCE(agent_threads.user_id, excluded.user_id),
           updated_at = excluded.updated_at, turn_count = agent_threads.turn_count + $4
         RETURNING version, turn_count, updated_at AS now`,
        [agent, threadKey, userId ?? null, turns.length],
      );
      const { version, now } = rows[0];
      const first = rows[0].turn_count - turns.length + 1;
      await c.query(
        `INSERT INTO agent_turns (agent_id, thread_key, seq, created_at, turn, search)
         SELECT $1, $2, $3 + i - 1, $4, t, to_tsvector('simple', s) FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS x(t, s, i)`,
        [agent, threadKey, first, now, turns, turns.map(searchableText)],
      );
      return { version, turns: turns.map((_, i) => ({ seq: first + i, createdAt: now })) };
    });
  }

  deleteThread(agent: string, threadKey: string): Promise<boolean> {
    return inTransaction(this.pool, async (c) => {
      await lockThread(c, agent, threadKey);
      await c.query('DELETE FROM agent_turns WHERE agent_id = $1 AND thread_key = $2', [agent, threadKey]);
      const { rowCount } = await c.query('DELETE FROM agent_threads WHERE agent_id = $1 AND thread_key = $2', [agent, threadKey]);
      return (rowCount ?? 0) > 0;
    });
  }

  async putMemory(agent: string, userId: string, name: string, content: string, expected: number): Promise<WriteOutcome> {
    const text = `${name} ${searchableText(content)}`;
    const { rows } =
      expected === 0
        ? await this.pool.query<{ version: number }>(
            `INSERT INTO agent_memories (agent_id, user_id, name, content, version, created_at, updated_at, search)
             VALUES ($1, $2, $3, $4, nextval('object_version'), flow_now_ms(), flow_now_ms(), to_tsvector('simple', $5))
             ON CONFLICT (agent_id, user_id, name) DO NOTHING RETURNING version`,
            [agent, userId, name, content, text],
          )
        : await this.pool.query<{ version: number }>(
            `UPDATE agent_memories SET content = $4, version = nextval('object_version'), updated_at = flow_now_ms(), search = to_tsvector('simple', $5)
             WHERE agent_id = $1 AND user_id = $2 AND name = $3 AND version = $6 RETURNING version`,
            [agent, userId, name, content, text, expected],
          );
    if (rows[0]) return { ok: true, version: rows[0].version, created: expected === 0 };
    const current = await this.memoryVersion(agent, userId, name);
    return { ok: false, conflict: writeConflict(expected, current) ?? `it changed while being written (now at version ${current ?? 'none'}); read it again and retry` };
  }

  async deleteMemory(agent: string, userId: string, name: string, expected: number): Promise<DeleteOutcome> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM agent_memories WHERE agent_id = $1 AND user_id = $2 AND name = $3 AND ($4::bigint = 0 OR version = $4)',
      [agent, userId, name, expected],
    );
    if (rowCount) return { ok: true, deleted: true };
    const current = await this.memoryVersion(agent, userId, name);
    if (current === undefined) return { ok: true, deleted: false };
    return { ok: false, conflict: deleteConflict(expected, current)! };
  }

  private async thread(q: pg.Pool | pg.PoolClient, agent: string, threadKey: string): Promise<ThreadRow | undefined> {
    const { rows } = await q.query<ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM agent_threads WHERE agent_id = $1 AND thread_key = $2`, [agent, threadKey]);
    return rows[0];
  }

  private async memoryVersion(agent: string, userId: string, name: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ version: number }>('SELECT version FROM agent_memories WHERE agent_id = $1 AND user_id = $2 AND name = $3', [
      agent,
      userId,
      name,
    ]);
    return rows[0]?.version;
  }
}

async function lockThread(c: pg.PoolClient, agent: string, threadKey: string): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(["thread", agent, threadKey])]);
}
