import { secretInfo, type SecretInfo, type SecretNameStore, type SecretRow } from '../cluster-secret-store.ts';
import type { Db } from './sqlite-database.ts';

/** Cluster secret names in the SQLite file (the values live in the sealed `flow-secrets` file beside it). */
export class SqliteSecretNames implements SecretNameStore {
  constructor(private readonly db: Db) {}

  async list(): Promise<SecretInfo[]> {
    return (this.db.prepare('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets ORDER BY name').all() as SecretRow[]).map(secretInfo);
  }

  async get(name: string): Promise<SecretInfo | undefined> {
    return this.read(name);
  }

  async record(name: string, actor: string): Promise<boolean> {
    return this.db.transaction(() => {
      const existed = this.read(name) !== undefined;
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

  async remove(name: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM cluster_secrets WHERE name = ?').run(name).changes === 1;
  }

  private read(name: string): SecretInfo | undefined {
    const row = this.db.prepare('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets WHERE name = ?').get(name) as SecretRow | undefined;
    return row && secretInfo(row);
  }
}
