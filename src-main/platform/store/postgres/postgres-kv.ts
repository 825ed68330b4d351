import type pg from 'pg';
import { isSecretNamespace, isVolatileNamespace, kvSealContext, type KvEntry, type KvStore } from '../kv-store.ts';
import { deleteConflict, writeConflict, type DeleteOutcome, type WriteOutcome } from '../object-versions.ts';
import type { SecretCipher } from '../secret-cipher.ts';

/**
 * KV entries on PostgreSQL. Compare-and-set is one statement on the version column: a create is
 * `INSERT … ON CONFLICT DO NOTHING`, a replace is `UPDATE … WHERE version = expected`, and
 * PostgreSQL re-checks that condition after waiting on a concurrent writer's row lock, so of
 * two replicas writing the same version exactly one succeeds. Versions come from one sequence.
 * `*_volatile` namespaces live in an UNLOGGED table: shared by replicas, lost on a crash.
 */
export class PostgresKv implements KvStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly cipher: SecretCipher,
  ) {}

  async get(ns: string, key: string): Promise<KvEntry | undefined> {
    const { rows } = await this.pool.query<KvEntry>(`SELECT value, version FROM ${table(ns)} WHERE namespace = $1 AND key = $2`, [ns, key]);
    const row = rows[0];
    if (row && isSecretNamespace(ns)) row.value = this.cipher.open(row.value, kvSealContext(ns, key));
    return row;
  }

  async put(ns: string, key: string, value: Buffer, expected: number): Promise<WriteOutcome> {
    const stored = isSecretNamespace(ns) ? this.cipher.seal(value, kvSealContext(ns, key)) : value;
    const t = table(ns);
    const { rows } =
      expected === 0
        ? await this.pool.query<{ version: number }>(
            `INSERT INTO ${t} (namespace, key, value, version, updated_at) VALUES ($1, $2, $3, nextval('object_version'), flow_now_ms())
             ON CONFLICT (namespace, key) DO NOTHING RETURNING version`,
            [ns, key, stored],
          )
        : await this.pool.query<{ version: number }>(
            `UPDATE ${t} SET value = $3, version = nextval('object_version'), updated_at = flow_now_ms()
             WHERE namespace = $1 AND key = $2 AND version = $4 RETURNING version`,
            [ns, key, stored, expected],
          );
    if (rows[0]) return { ok: true, version: rows[0].version, created: expected === 0 };
    const current = await this.versionOf(ns, key);
    return { ok: false, conflict: writeConflict(expected, current) ?? `it changed while being written (now at version ${current ?? 'none'}); read it again and retry` };
  }

  async delete(ns: string, key: string, expected: number): Promise<DeleteOutcome> {
    const t = table(ns);
    const { rowCount } =
      expected === 0
        ? await this.pool.query(`DELETE FROM ${t} WHERE namespace = $1 AND key = $2`, [ns, key])
        : await this.pool.query(`DELETE FROM ${t} WHERE namespace = $1 AND key = $2 AND version = $3`, [ns, key, expected]);
    if (rowCount) return { ok: true, deleted: true };
    if (expected === 0) return { ok: true, deleted: false };
    const current = await this.versionOf(ns, key);
    if (current === undefined) return { ok: true, deleted: false };
    return { ok: false, conflict: deleteConflict(expected, current)! };
  }

  private async versionOf(ns: string, key: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ version: number }>(`SELECT version FROM ${table(ns)} WHERE namespace = $1 AND key = $2`, [ns, key]);
    return rows[0]?.version;
  }
}

const table = (ns: string): string => (isVolatileNamespace(ns) ? 'kv_volatile' : 'kv_entries');
