import type pg from 'pg';
import { deploymentOf, type Binding, type BindingRow, type Deployment, type DeploymentRow, type DeploymentStore } from '../deployment-store.ts';
import { refuse } from '../store-refusal.ts';
import { inTransaction } from './postgres-connection.ts';

/** Deployment records in PostgreSQL (the SQLite twin is store/sqlite/sqlite-deployments.ts). */
export class PostgresDeployments implements DeploymentStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<Deployment[]> {
    const [deployments, bindings] = await Promise.all([
      this.pool.query<DeploymentRow>('SELECT * FROM deployments ORDER BY id'),
      this.pool.query<BindingRow & { deployment: string }>('SELECT deployment, variable, literal, secret FROM deployment_bindings ORDER BY deployment, variable'),
    ]);
    const byDeployment = new Map<string, BindingRow[]>();
    for (const b of bindings.rows) byDeployment.set(b.deployment, [...(byDeployment.get(b.deployment) ?? []), b]);
    return deployments.rows.map((r) => deploymentOf(r, byDeployment.get(r.id) ?? []));
  }

  async get(id: string): Promise<Deployment> {
    const [deployment, bindings] = await Promise.all([
      this.pool.query<DeploymentRow>('SELECT * FROM deployments WHERE id = $1', [id]),
      this.pool.query<BindingRow>('SELECT variable, literal, secret FROM deployment_bindings WHERE deployment = $1 ORDER BY variable', [id]),
    ]);
    if (!deployment.rows[0]) throw refuse({ reason: 'missing-deployment', id: id });
    return deploymentOf(deployment.rows[0], bindings.rows);
  }

  save(id: string, record: { integration: string; tag: string; snapshotId: string; bindings: Record<string, Binding> }, actor: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      // The upsert locks the row: a concurrent roll-out of the same id waits here, so the bindings
      // stored are those of one request, never a mix.
      const { rows } = await client.query<{ created: boolean }>(
        `INSERT INTO deployments (id, integration, tag, snapshot, created_at, created_by) VALUES ($1, $2, $3, $4, flow_now_ms(), $5)
         ON CONFLICT (id) DO UPDATE SET integration = excluded.integration, tag = excluded.tag, snapshot = excluded.snapshot,
           created_at = excluded.created_at, created_by = excluded.created_by
         RETURNING (xmax = 0) AS created`,
        [id, record.integration, record.tag, record.snapshotId, actor],
      );
      await client.query('DELETE FROM deployment_bindings WHERE deployment = $1', [id]);
      for (const [variable, b] of Object.entries(record.bindings)) {
        await client.query('INSERT INTO deployment_bindings (deployment, variable, literal, secret) VALUES ($1, $2, $3, $4)', [
          id,
          variable,
          'secret' in b ? null : b.value,
          'secret' in b ? b.secret : null,
        ]);
      }
      return rows[0].created;
    });
  }

  async delete(id: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query('DELETE FROM deployments WHERE id = $1', [id]);
      if (rowCount === 0) throw refuse({ reason: 'missing-deployment', id: id });
      await client.query('DELETE FROM deployment_bindings WHERE deployment = $1', [id]);
    });
  }

  async usersOfSecret(name: string): Promise<Array<{ deployment: string; variable: string }>> {
    const { rows } = await this.pool.query<{ deployment: string; variable: string }>(
      'SELECT deployment, variable FROM deployment_bindings WHERE secret = $1 ORDER BY deployment, variable',
      [name],
    );
    return rows;
  }
}
