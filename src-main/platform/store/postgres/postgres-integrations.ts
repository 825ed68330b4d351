import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  INTEGRATION_SELECT,
  RESOURCE_COLUMNS,
  integrationInfo,
  resourceInfo,
  type DefinitionInfo,
  type DefinitionRecord,
  type IntegrationFiles,
  type IntegrationInfo,
  type IntegrationRow,
  type IntegrationStore,
  type ResourceInfo,
  type ResourcePatch,
  type ResourceRecord,
  type ResourceRow,
} from '../integration-store.ts';
import type { ResourceKind } from '../resource-store.ts';
import { refuse } from '../store-refusal.ts';
import { inTransaction } from './postgres-connection.ts';

/** A pooled connection or the pool itself: reads run on either, inside a transaction or not. */
type Queryable = pg.Pool | pg.PoolClient;

const newResourceId = (): string => `res_${randomBytes(9).toString('base64url')}`;

/**
 * The working copy of each integration in PostgreSQL, shared by every replica (the SQLite twin is
 * store/sqlite/sqlite-integrations.ts, with the same answers). Every write locks the integration's
 * row first, so writes to one integration are serialized across replicas: a version check, a
 * duplicate-name check and the next position are never decided on a stale read.
 */
export class PostgresIntegrations implements IntegrationStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<IntegrationInfo[]> {
    const { rows } = await this.pool.query<IntegrationRow>(`SELECT ${INTEGRATION_SELECT} FROM integrations i ORDER BY i.id`);
    return rows.map(integrationInfo);
  }

  async get(id: string, db: Queryable = this.pool): Promise<IntegrationInfo | undefined> {
    const { rows } = await db.query<IntegrationRow>(`SELECT ${INTEGRATION_SELECT} FROM integrations i WHERE i.id = $1`, [id]);
    return rows[0] && integrationInfo(rows[0]);
  }

  private async require(id: string, db: Queryable = this.pool): Promise<IntegrationInfo> {
    const found = await this.get(id, db);
    if (!found) throw refuse({ reason: 'missing-integration', integration: id });
    return found;
  }

  async ensure(id: string, actor: string, db: Queryable = this.pool): Promise<boolean> {
    const created = await db.query(
      `INSERT INTO integrations (id, created_at, created_by, updated_at, updated_by) VALUES ($1, flow_now_ms(), $2, flow_now_ms(), $2) ON CONFLICT (id) DO NOTHING`,
      [id, actor],
    );
    return created.rowCount === 1;
  }

  /* ---------- resources ---------- */

  async listResources(integration: string): Promise<ResourceInfo[]> {
    await this.require(integration);
    const { rows } = await this.pool.query<ResourceRow>(`SELECT ${RESOURCE_COLUMNS} FROM integration_resources WHERE integration = $1 ORDER BY position`, [integration]);
    return rows.map(resourceInfo);
  }

  async getResource(integration: string, id: string, db: Queryable = this.pool): Promise<ResourceRecord> {
    await this.require(integration, db);
    const { rows } = await db.query<ResourceRow>(`SELECT ${RESOURCE_COLUMNS}, content FROM integration_resources WHERE integration = $1 AND id = $2`, [integration, id]);
    if (!rows[0]) throw refuse({ reason: 'missing-resource', integration, id });
    return { ...resourceInfo(rows[0]), content: rows[0].content! };
  }

  async createResource(integration: string, input: { kind: ResourceKind; name: string; content: Buffer }, actor: string): Promise<ResourceRecord> {
    const id = newResourceId();
    await this.write(integration, actor, true, async (client, now) => {
      await refuseDuplicate(client, integration, input.name, undefined);
      await client.query(
        `INSERT INTO integration_resources (id, integration, position, kind, name, content, version, created_at, created_by, updated_at, updated_by)
         VALUES ($1, $2, (SELECT COALESCE(MAX(position), 0) + 1 FROM integration_resources WHERE integration = $2), $3, $4, $5, 1, $6, $7, $6, $7)`,
        [id, integration, input.kind, input.name, input.content, now, actor],
      );
    });
    return this.getResource(integration, id);
  }

  async updateResource(integration: string, id: string, patch: ResourcePatch, expectedVersion: number, actor: string): Promise<ResourceRecord> {
    await this.write(integration, actor, false, async (client, now) => {
      const current = await this.getResource(integration, id, client);
      if (expectedVersion > 0 && expectedVersion !== current.version) {
        throw refuse({ reason: 'resource-version', name: current.name, current: current.version, expected: expectedVersion });
      }
      if (patch.name !== undefined && patch.name !== current.name) await refuseDuplicate(client, integration, patch.name, id);
      await client.query(
        'UPDATE integration_resources SET kind = $1, name = $2, content = $3, version = version + 1, updated_at = $4, updated_by = $5 WHERE id = $6',
        [patch.kind ?? current.kind, patch.name ?? current.name, patch.content ?? current.content, now, actor, id],
      );
    });
    return this.getResource(integration, id);
  }

  async deleteResource(integration: string, id: string, actor: string): Promise<ResourceInfo> {
    return this.write(integration, actor, false, async (client) => {
      const { content: _content, ...current } = await this.getResource(integration, id, client);
      await client.query('DELETE FROM integration_resources WHERE id = $1', [id]);
      return current;
    });
  }

  /* ---------- definitions ---------- */

  async listDefinitions(integration: string): Promise<DefinitionInfo[]> {
    await this.require(integration);
    const { rows } = await this.pool.query<{ file: string; bytes: number; updated_at: number; updated_by: string }>(
      'SELECT file, length(content) AS bytes, updated_at, updated_by FROM integration_definitions WHERE integration = $1 ORDER BY file',
      [integration],
    );
    return rows.map((r) => ({ file: r.file, bytes: r.bytes, updatedAt: r.updated_at, updatedBy: r.updated_by }));
  }

  async getDefinition(integration: string, file: string, db: Queryable = this.pool): Promise<DefinitionRecord> {
    await this.require(integration, db);
    const { rows } = await db.query<{ file: string; content: Buffer; bytes: number; updated_at: number; updated_by: string }>(
      'SELECT file, content, length(content) AS bytes, updated_at, updated_by FROM integration_definitions WHERE integration = $1 AND file = $2',
      [integration, file],
    );
    const row = rows[0];
    if (!row) throw refuse({ reason: 'missing-definition', integration, file });
    return { file: row.file, content: row.content, bytes: row.bytes, updatedAt: row.updated_at, updatedBy: row.updated_by };
  }

  async putDefinition(integration: string, file: string, content: Buffer, actor: string): Promise<boolean> {
    return this.write(integration, actor, true, async (client, now) => {
      const { rows } = await client.query<{ created: boolean }>(
        `INSERT INTO integration_definitions (integration, file, content, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (integration, file) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at, updated_by = excluded.updated_by
         RETURNING (xmax = 0) AS created`,
        [integration, file, content, now, actor],
      );
      return rows[0].created;
    });
  }

  async deleteDefinition(integration: string, file: string, actor: string): Promise<void> {
    await this.write(integration, actor, false, async (client) => {
      await this.getDefinition(integration, file, client);
      await client.query('DELETE FROM integration_definitions WHERE integration = $1 AND file = $2', [integration, file]);
    });
  }

  /* ---------- the whole working copy ---------- */

  async files(integration: string, db: Queryable = this.pool): Promise<IntegrationFiles> {
    await this.require(integration, db);
    const definitions = await db.query<{ file: string; content: Buffer }>('SELECT file, content FROM integration_definitions WHERE integration = $1 ORDER BY file', [
      integration,
    ]);
    const resources = await db.query<{ kind: ResourceKind; name: string; content: Buffer }>(
      'SELECT kind, name, content FROM integration_resources WHERE integration = $1 ORDER BY position',
      [integration],
    );
    return { definitions: definitions.rows, resources: resources.rows };
  }

  async replace(integration: string, files: IntegrationFiles, actor: string): Promise<void> {
    const seen = new Set(files.resources.map((r) => r.name));
    await this.write(integration, actor, true, async (client, now) => {
      const { rows } = await client.query<{ id: string; kind: string; name: string; content: Buffer }>(
        'SELECT id, kind, name, content FROM integration_resources WHERE integration = $1',
        [integration],
      );
      const existing = new Map(rows.map((r) => [r.name, r]));
      await client.query('DELETE FROM integration_definitions WHERE integration = $1', [integration]);
      for (const d of files.definitions) {
        await client.query('INSERT INTO integration_definitions (integration, file, content, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5)', [
          integration,
          d.file,
          d.content,
          now,
          actor,
        ]);
      }
      const gone = [...existing.values()].filter((r) => !seen.has(r.name)).map((r) => r.id);
      if (gone.length > 0) await client.query('DELETE FROM integration_resources WHERE id = ANY($1)', [gone]);
      for (const [i, r] of files.resources.entries()) {
        const prior = existing.get(r.name);
        if (!prior) {
          await client.query(
            `INSERT INTO integration_resources (id, integration, position, kind, name, content, version, created_at, created_by, updated_at, updated_by)
             VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $7, $8)`,
            [newResourceId(), integration, i + 1, r.kind, r.name, r.content, now, actor],
          );
        } else if (prior.kind === r.kind && prior.content.equals(r.content)) {
          // An unchanged resource keeps its version and authorship; only its place may move.
          await client.query('UPDATE integration_resources SET position = $1 WHERE id = $2', [i + 1, prior.id]);
        } else {
          await client.query(
            'UPDATE integration_resources SET position = $1, kind = $2, content = $3, version = version + 1, updated_at = $4, updated_by = $5 WHERE id = $6',
            [i + 1, r.kind, r.content, now, actor, prior.id],
          );
        }
      }
    });
  }

  /**
   * Runs a write of the integration's working copy in one transaction holding the integration's
   * row lock (created first when `create`), and records who wrote it and when.
   */
  private write<T>(integration: string, actor: string, create: boolean, work: (client: pg.PoolClient, now: number) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      if (create) await this.ensure(integration, actor, client);
      const locked = await client.query<{ now: number }>('SELECT flow_now_ms() AS now FROM integrations WHERE id = $1 FOR UPDATE', [integration]);
      if (locked.rowCount === 0) throw refuse({ reason: 'missing-integration', integration });
      const now = locked.rows[0].now;
      const result = await work(client, now);
      await client.query('UPDATE integrations SET updated_at = $1, updated_by = $2 WHERE id = $3', [now, actor, integration]);
      return result;
    });
  }
}

async function refuseDuplicate(client: pg.PoolClient, integration: string, name: string, exceptId: string | undefined): Promise<void> {
  const { rows } = await client.query<{ id: string; kind: string }>('SELECT id, kind FROM integration_resources WHERE integration = $1 AND name = $2', [integration, name]);
  if (rows[0] && rows[0].id !== exceptId) throw refuse({ reason: 'duplicate-resource', integration, name, other: rows[0] });
}
