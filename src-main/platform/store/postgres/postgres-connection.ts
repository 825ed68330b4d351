import { createHash } from 'node:crypto';
import pg from 'pg';

/** bigint (int8) columns as JS numbers: every bigint here (ms times, versions, sequences) stays below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function createPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, types, max: 16, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (a database restart) must not crash the server; the
  // pool drops it and the next query opens a fresh one.
  pool.on('error', () => {});
  return pool;
}

export function createClient(url: string): pg.Client {
  return new pg.Client({ connectionString: url, types });
}

/** Runs `work` in one transaction on one pooled connection; rolls back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const names = new Map<string, string>();

/**
 * A statement PostgreSQL parses and plans once per connection: node-postgres prepares a query
 * that has a name the first time a connection runs it, and reuses it after. The name is derived
 * from the text, so one text is one name.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (!name) names.set(text, (name = `flow_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return { name, text, values };
}
