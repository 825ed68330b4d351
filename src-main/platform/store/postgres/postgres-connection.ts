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
