import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { IntegrationFiles } from '../integration-store.ts';
import type { ResourceKind } from '../resource-store.ts';
import { snapshotOf, type DeclaredVariable, type Snapshot, type SnapshotRow, type SnapshotStore } from '../snapshot-store.ts';
import { refuse } from '../store-refusal.ts';
import { inTransaction } from './postgres-connection.ts';
import type { PostgresIntegrations } from './postgres-integrations.ts';

/** PostgreSQL's unique_violation: another replica created the same tag first. */
const UNIQUE_VIOLATION = '23505';

/**
 * Version tags and their frozen copies in PostgreSQL (the SQLite twin is
 * store/sqlite/sqlite-snapshots.ts). A tag reads the working copy and writes its frozen copy in one
 * REPEATABLE READ transaction: every file it freezes comes from one snapshot of the database,
 * whatever other replicas write meanwhile. Two replicas creating the same tag at once: the
 * unique (integration, tag) key lets one win and the other answers 409 as SQLite would.
 */
export class PostgresSnapshots implements SnapshotStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly integrations: PostgresIntegrations,
  ) {}

  async createTag(
    integration: string,
    tag: string,
    description: string | undefined,
    actor: string,
    variablesOf: (files: IntegrationFiles) => DeclaredVariable[],
  ): Promise<Snapshot> {
    const id = `snap_${randomBytes(9).toString('base64url')}`;
    try {
      await inTransaction(this.pool, async (client) => {
        await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const files = await this.integrations.files(integration, client);
        const taken = await this.tagId(integration, tag, client);
        if (taken) throw refuse({ reason: 'tag-exists', integration, tag, snapshot: taken });
        const variables = variablesOf(files);
        await client.query(
          'INSERT INTO snapshots (id, integration, tag, description, variables, created_at, created_by) VALUES ($1, $2, $3, $4, $5, flow_now_ms(), $6)',
          [id, integration, tag, description ?? null, JSON.stringify(variables), actor],
        );
        for (const d of files.definitions) await client.query('INSERT INTO snapshot_definitions (snapshot, file, content) VALUES ($1, $2, $3)', [id, d.file, d.content]);
        for (const [i, r] of files.resources.entries()) {
          await client.query('INSERT INTO snapshot_resources (snapshot, position, kind, name, content) VALUES ($1, $2, $3, $4, $5)', [id, i + 1, r.kind, r.name, r.content]);
        }
      });
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) {
        throw refuse({ reason: 'tag-exists', integration, tag, snapshot: (await this.tagId(integration, tag, this.pool)) ?? 'unknown' });
      }
      throw err;
    }
    return this.get(id);
  }

  async listTags(integration: string): Promise<Snapshot[]> {
    await this.requireIntegration(integration);
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM snapshots WHERE integration = $1 ORDER BY created_at, tag', [integration]);
    return Promise.all(rows.map((r) => this.get(r.id)));
  }

  async getTag(integration: string, tag: string): Promise<Snapshot> {
    await this.requireIntegration(integration);
    const id = await this.tagId(integration, tag, this.pool);
    if (!id) throw refuse({ reason: 'missing-tag', integration, tag });
    return this.get(id);
  }

  async get(id: string): Promise<Snapshot> {
    const { rows } = await this.pool.query<SnapshotRow>('SELECT * FROM snapshots WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) throw refuse({ reason: 'missing-snapshot', id });
    const [definitions, resources] = await Promise.all([
      this.pool.query<{ file: string; bytes: number }>('SELECT file, length(content) AS bytes FROM snapshot_definitions WHERE snapshot = $1 ORDER BY file', [id]),
      this.pool.query<{ kind: ResourceKind; name: string; bytes: number }>(
        'SELECT kind, name, length(content) AS bytes FROM snapshot_resources WHERE snapshot = $1 ORDER BY position',
        [id],
      ),
    ]);
    return snapshotOf(row, definitions.rows, resources.rows);
  }

  async definitions(id: string): Promise<Array<{ file: string; content: Buffer }>> {
    await this.requireExists(id);
    const { rows } = await this.pool.query<{ file: string; content: Buffer }>('SELECT file, content FROM snapshot_definitions WHERE snapshot = $1 ORDER BY file', [id]);
    return rows;
  }

  async resourceContent(id: string, kind: ResourceKind, name: string): Promise<Buffer | undefined> {
    const { rows } = await this.pool.query<{ content: Buffer }>('SELECT content FROM snapshot_resources WHERE snapshot = $1 AND kind = $2 AND name = $3', [id, kind, name]);
    // Only a miss pays for telling a missing snapshot from a missing resource.
    if (rows.length === 0) await this.requireExists(id);
    return rows[0]?.content;
  }

  private async requireExists(id: string): Promise<void> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM snapshots WHERE id = $1', [id]);
    if (rowCount === 0) throw refuse({ reason: 'missing-snapshot', id });
  }

  private async requireIntegration(id: string): Promise<void> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM integrations WHERE id = $1', [id]);
    if (rowCount === 0) throw refuse({ reason: 'missing-integration', integration: id });
  }

  private async tagId(integration: string, tag: string, db: pg.Pool | pg.PoolClient): Promise<string | undefined> {
    const { rows } = await db.query<{ id: string }>('SELECT id FROM snapshots WHERE integration = $1 AND tag = $2', [integration, tag]);
    return rows[0]?.id;
  }
}
