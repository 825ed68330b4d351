import type pg from 'pg';
import { secretInfo, type SecretInfo, type SecretNameStore, type SecretValues } from '../cluster-secret-store.ts';
import type { SecretCipher } from '../secret-cipher.ts';

/** Cluster secret names in PostgreSQL. */
export class PostgresSecretNames implements SecretNameStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<SecretInfo[]> {
    const { rows } = await this.pool.query<SecretRowPg>('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets ORDER BY name');
    return rows.map(secretInfo);
  }

  async get(name: string): Promise<SecretInfo | undefined> {
    const { rows } = await this.pool.query<SecretRowPg>('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets WHERE name = $1', [name]);
    return rows[0] && secretInfo(rows[0]);
  }

  async record(name: string, actor: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ created: boolean }>(
      `INSERT INTO cluster_secrets (name, created_at, updated_at, updated_by) VALUES ($1, flow_now_ms(), flow_now_ms(), $2)
       ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at, updated_by = excluded.updated_by
       RETURNING (xmax = 0) AS created`,
      [name, actor],
    );
    return rows[0].created;
  }

  async remove(name: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM cluster_secrets WHERE name = $1', [name]);
    return rowCount === 1;
  }
}

interface SecretRowPg {
  name: string;
  created_at: number;
  updated_at: number;
  updated_by: string;
}

/**
 * Cluster secret values in the shared database, each sealed by the platform's SecretCipher
 * (AES-256-GCM, the key every replica is given in FLOW_PLATFORM_SECRET_KEY) with its name as
 * associated data, so a sealed value copied to another name does not open.
 */
export class PostgresSecretValues implements SecretValues {
  readonly description = "the platform's PostgreSQL store, sealed with its secret key";

  constructor(
    private readonly pool: pg.Pool,
    private readonly cipher: SecretCipher,
  ) {}

  async ready(): Promise<void> {}

  async get(name: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ sealed: Buffer }>('SELECT sealed FROM cluster_secret_values WHERE name = $1', [name]);
    return rows[0] && this.cipher.open(rows[0].sealed, context(name)).toString('utf8');
  }

  async put(name: string, value: string): Promise<void> {
    await this.pool.query('INSERT INTO cluster_secret_values (name, sealed) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed', [
      name,
      this.cipher.seal(Buffer.from(value, 'utf8'), context(name)),
    ]);
  }

  async delete(name: string): Promise<void> {
    await this.pool.query('DELETE FROM cluster_secret_values WHERE name = $1', [name]);
  }
}

const context = (name: string): string => `flow-secrets/${name}`;
