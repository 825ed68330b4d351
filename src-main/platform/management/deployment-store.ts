import type { Db } from '../store/database.ts';
import type { DeploymentBackend } from '../store/management-backend.ts';
import { missingDeployment } from './management-errors.ts';
import type { Snapshot } from './snapshot-store.ts';

/** A declared variable bound to a literal value or to a cluster secret by name (spec 2 §4.3). */
export type Binding = { value: string } | { secret: string };

export interface Deployment {
  id: string;
  integration: string;
  tag: string;
  snapshotId: string;
  createdAt: number;
  createdBy: string;
  /** Secret bindings hold the secret's name, never its value. An empty literal injects nothing. */
  bindings: Record<string, Binding>;
}

export interface DeployRequest {
  integration: string;
  tag: string;
  bindings: Record<string, Binding>;
}

/** What a runtime of the deployment starts with: the container environment, resolved. */
export interface ContainerEnv {
  snapshot: Snapshot;
  /** Literal bindings and resolved secret references; empty bindings are absent. */
  env: Record<string, string>;
  /** Names of the variables whose value came from a secret, so the runtime masks them. */
  secretVariables: string[];
}

export interface DeploymentRow {
  id: string;
  integration: string;
  tag: string;
  snapshot: string;
  created_at: number;
  created_by: string;
}

export interface BindingRow {
  variable: string;
  literal: string | null;
  secret: string | null;
}

/** Deployment records in the SQLite file: which tag runs with which bindings. */
export class DeploymentStore implements DeploymentBackend {
  constructor(private readonly db: Db) {}

  list(): Deployment[] {
    return (this.db.prepare('SELECT * FROM deployments ORDER BY id').all() as DeploymentRow[]).map((r) => this.withBindings(r));
  }

  get(id: string): Deployment {
    const row = this.db.prepare('SELECT * FROM deployments WHERE id = ?').get(id) as DeploymentRow | undefined;
    if (!row) throw missingDeployment(id);
    return this.withBindings(row);
  }

  save(id: string, record: { integration: string; tag: string; snapshotId: string; bindings: Record<string, Binding> }, actor: string): boolean {
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

  delete(id: string): void {
    this.get(id);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM deployment_bindings WHERE deployment = ?').run(id);
      this.db.prepare('DELETE FROM deployments WHERE id = ?').run(id);
    })();
  }

  usersOfSecret(name: string): Array<{ deployment: string; variable: string }> {
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

/** A deployment from its row and its binding rows (ordered by variable). */
export function deploymentOf(row: DeploymentRow, bindingRows: BindingRow[]): Deployment {
  const bindings: Record<string, Binding> = {};
  for (const b of bindingRows) bindings[b.variable] = b.secret !== null ? { secret: b.secret } : { value: b.literal ?? '' };
  return { id: row.id, integration: row.integration, tag: row.tag, snapshotId: row.snapshot, createdAt: row.created_at, createdBy: row.created_by, bindings };
}
