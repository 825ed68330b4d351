import type { Db } from '../store/database.ts';
import type { SecretNameBackend } from '../store/management-backend.ts';
import type { SecretValues } from './secret-values.ts';

export { SECRET_OBJECT_FILE } from './secret-values.ts';

export interface SecretInfo {
  name: string;
  createdAt: number;
  updatedAt: number;
  updatedBy: string;
}

/**
 * Cluster secrets (spec 2 §2.11): names and timestamps in the store (SQLite or PostgreSQL), values
 * where `SecretValues` keeps them (secret-values.ts). A value is stored before its name and
 * deleted after it, so a crash leaves at worst a value without a name, which is never revealed.
 */
export class ClusterSecretStore {
  constructor(
    private readonly names: SecretNameBackend,
    private readonly values: SecretValues,
  ) {}

  /** Where the values live, for messages. */
  get backend(): string {
    return this.values.description;
  }

  /** Reads the values of a remote backend before the first `reveal`; a no-op for the local file. */
  ready(): Promise<void> {
    return this.values.ready();
  }

  /** Names and timestamps, by name. */
  async list(): Promise<SecretInfo[]> {
    return this.names.list();
  }

  async get(name: string): Promise<SecretInfo | undefined> {
    return this.names.get(name);
  }

  /** Creates or overwrites; true when created. The value is stored before the name. */
  async put(name: string, value: string, actor: string): Promise<boolean> {
    const existed = (await this.names.get(name)) !== undefined;
    await this.values.put(name, value);
    await this.names.record(name, actor);
    return !existed;
  }

  /** Deletes the name, then the value; false when there was no such secret. */
  async delete(name: string): Promise<boolean> {
    const removed = await this.names.remove(name);
    await this.values.delete(name);
    return removed;
  }

  /**
   * The value, for the process that starts a deployment's runtime (the equivalent of a secret
   * reference resolved into a pod's environment). In process only: no route calls it.
   */
  async reveal(name: string): Promise<string | undefined> {
    if (!(await this.names.get(name))) return undefined;
    return this.values.get(name);
  }
}

interface SecretRow {
  name: string;
  created_at: number;
  updated_at: number;
  updated_by: string;
}

export const secretInfo = (r: SecretRow): SecretInfo => ({ name: r.name, createdAt: r.created_at, updatedAt: r.updated_at, updatedBy: r.updated_by });

/** Cluster secret names in the SQLite file. */
export class SqliteSecretNames implements SecretNameBackend {
  constructor(private readonly db: Db) {}

  list(): SecretInfo[] {
    return (this.db.prepare('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets ORDER BY name').all() as SecretRow[]).map(secretInfo);
  }

  get(name: string): SecretInfo | undefined {
    const row = this.db.prepare('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets WHERE name = ?').get(name) as SecretRow | undefined;
    return row && secretInfo(row);
  }

  record(name: string, actor: string): boolean {
    return this.db.transaction(() => {
      const existed = this.get(name) !== undefined;
      const now = Date.now();
      this.db
        .prepare(
          `INSERT INTO cluster_secrets (name, created_at, updated_at, updated_by) VALUES (?, ?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
        )
        .run(name, now, now, actor);
      return !existed;
    })();
  }

  remove(name: string): boolean {
    return this.db.prepare('DELETE FROM cluster_secrets WHERE name = ?').run(name).changes === 1;
  }

  /** Every name, for dropping values whose name never reached the database. */
  all(): string[] {
    return this.db.prepare('SELECT name FROM cluster_secrets').pluck().all() as string[];
  }
}
