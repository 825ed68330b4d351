import { deploymentOf, type Binding, type BindingRow, type Deployment, type DeploymentRow, type DeploymentStore } from '../deployment-store.ts';
import { refuse } from '../store-refusal.ts';
import type { Db } from './sqlite-database.ts';

/** Deployment records in the SQLite file: which tag runs with which bindings. */
export class SqliteDeployments implements DeploymentStore {
  constructor(private readonly db: Db) {}

  async list(): Promise<Deployment[]> {
    return (this.db.prepare('SELECT * FROM deployments ORDER BY id').all() as DeploymentRow[]).map((r) => this.withBindings(r));
  }

  async get(id: string): Promise<Deployment> {
    return this.deployment(id);
  }

  private deployment(id: string): Deployment {
    const row = this.db.prepare('SELECT * FROM deployments WHERE id = ?').get(id) as DeploymentRow | undefined;
    if (!row) throw refuse({ reason: 'missing-deployment', id });
    return this.withBindings(row);
  }

  async save(id: string, record: { integration: string; tag: string; snapshotId: string; bindings: Record<string, Binding> }, actor: string): Promise<boolean> {
    return this.db.transaction(() => {
      const existed = this.db.prepare('SELECT 1 FROM deployments WHERE id = ?').get(id) !== undefined;
      this.db
        .prepare(
          `INSERT INTO deployments (id, integration, tag, snapshot, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET integration = excluded.integration, tag = excluded.tag, snapshot = excluded.snapshot,
             created_at = excluded.created_at, created_by = excluded.created_by`,
        )
        .run(id, record.integration, record.tag, record.snapshotId, Date.now(), actor);
      this.db.prepare('DELETE FROM deployment_bindings WHERE deployment = ?').run(id);
      const insert = this.db.prepare('INSERT INTO deployment_bindings (deployment, variable, literal, secret) VALUES (?, ?, ?, ?)');
      for (const [variable, b] of Object.entries(record.bindings)) insert.run(id, variable, 'secret' in b ? null : b.value, 'secret' in b ? b.secret : null);
      return !existed;
    })();
  }

  async delete(id: string): Promise<void> {
    this.deployment(id);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM deployment_bindings WHERE deployment = ?').run(id);
      this.db.prepare('DELETE FROM deployments WHERE id = ?').run(id);
    })();
  }

  async usersOfSecret(name: string): Promise<Array<{ deployment: string; variable: string }>> {
    return this.db.prepare('SELECT deployment, variable FROM deployment_bindings WHERE secret = ? ORDER BY deployment, variable').all(name) as Array<{
      deployment: string;
      variable: string;
    }>;
  }

  private withBindings(row: DeploymentRow): Deployment {
    const rows = this.db.prepare('SELECT variable, literal, secret FROM deployment_bindings WHERE deployment = ? ORDER BY variable').all(row.id) as BindingRow[];
    return deploymentOf(row, rows);
  }
}
