import { randomBytes } from 'node:crypto';
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
import type { Db } from './sqlite-database.ts';

/**
 * The working copy of each integration in the SQLite file (the PostgreSQL twin is
 * store/postgres/postgres-integrations.ts, with the same answers). A write is one transaction.
 */
export class SqliteIntegrations implements IntegrationStore {
  constructor(private readonly db: Db) {}

  async list(): Promise<IntegrationInfo[]> {
    return (this.db.prepare(`SELECT ${INTEGRATION_SELECT} FROM integrations i ORDER BY i.id`).all() as IntegrationRow[]).map(integrationInfo);
  }

  async get(id: string): Promise<IntegrationInfo | undefined> {
    return this.read(id);
  }

  private read(id: string): IntegrationInfo | undefined {
    const row = this.db.prepare(`SELECT ${INTEGRATION_SELECT} FROM integrations i WHERE i.id = ?`).get(id) as IntegrationRow | undefined;
    return row && integrationInfo(row);
  }

  private require(id: string): IntegrationInfo {
    const found = this.read(id);
    if (!found) throw refuse({ reason: 'missing-integration', integration: id });
    return found;
  }

  async ensure(id: string, actor: string): Promise<boolean> {
    return this.ensureNow(id, actor);
  }

  private ensureNow(id: string, actor: string): boolean {
    const now = Date.now();
    const created = this.db
      .prepare('INSERT INTO integrations (id, created_at, created_by, updated_at, updated_by) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING')
      .run(id, now, actor, now, actor);
    return created.changes === 1;
  }

  /* ---------- resources ---------- */

  async listResources(integration: string): Promise<ResourceInfo[]> {
    this.require(integration);
    const rows = this.db.prepare(`SELECT ${RESOURCE_COLUMNS} FROM integration_resources WHERE integration = ? ORDER BY position`).all(integration) as ResourceRow[];
    return rows.map(resourceInfo);
  }

  async getResource(integration: string, id: string): Promise<ResourceRecord> {
    return this.resource(integration, id);
  }

  private resource(integration: string, id: string): ResourceRecord {
    this.require(integration);
    const row = this.db.prepare(`SELECT ${RESOURCE_COLUMNS}, content FROM integration_resources WHERE integration = ? AND id = ?`).get(integration, id) as
      | ResourceRow
      | undefined;
    if (!row) throw refuse({ reason: 'missing-resource', integration, id });
    return { ...resourceInfo(row), content: row.content! };
  }

  async createResource(integration: string, input: { kind: ResourceKind; name: string; content: Buffer }, actor: string): Promise<ResourceRecord> {
    const id = `res_${randomBytes(9).toString('base64url')}`;
    this.db.transaction(() => {
      this.ensureNow(integration, actor);
      this.refuseDuplicate(integration, input.name, undefined);
      const position = (this.db.prepare('SELECT COALESCE(MAX(position), 0) + 1 FROM integration_resources WHERE integration = ?').pluck().get(integration) as number);
      const now = Date.now();
      this.db
        .prepare(
          `INSERT INTO integration_resources (id, integration, position, kind, name, content, version, created_at, created_by, updated_at, updated_by)
           VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
        )
        .run(id, integration, position, input.kind, input.name, input.content, now, actor, now, actor);
      this.touch(integration, actor, now);
    })();
    return this.resource(integration, id);
  }

  async updateResource(integration: string, id: string, patch: ResourcePatch, expectedVersion: number, actor: string): Promise<ResourceRecord> {
    this.db.transaction(() => {
      const current = this.resource(integration, id);
      if (expectedVersion > 0 && expectedVersion !== current.version) {
        throw refuse({ reason: 'resource-version', name: current.name, current: current.version, expected: expectedVersion });
      }
      if (patch.name !== undefined && patch.name !== current.name) this.refuseDuplicate(integration, patch.name, id);
      const now = Date.now();
      this.db
        .prepare('UPDATE integration_resources SET kind = ?, name = ?, content = ?, version = version + 1, updated_at = ?, updated_by = ? WHERE id = ?')
        .run(patch.kind ?? current.kind, patch.name ?? current.name, patch.content ?? current.content, now, actor, id);
      this.touch(integration, actor, now);
    })();
    return this.resource(integration, id);
  }

  async deleteResource(integration: string, id: string, actor: string): Promise<ResourceInfo> {
    return this.db.transaction(() => {
      const { content: _content, ...current } = this.resource(integration, id);
      this.db.prepare('DELETE FROM integration_resources WHERE id = ?').run(id);
      this.touch(integration, actor, Date.now());
      return current;
    })();
  }

  /* ---------- definitions ---------- */

  async listDefinitions(integration: string): Promise<DefinitionInfo[]> {
    this.require(integration);
    return (
      this.db
        .prepare('SELECT file, length(content) AS bytes, updated_at, updated_by FROM integration_definitions WHERE integration = ? ORDER BY file')
        .all(integration) as Array<{ file: string; bytes: number; updated_at: number; updated_by: string }>
    ).map((r) => ({ file: r.file, bytes: r.bytes, updatedAt: r.updated_at, updatedBy: r.updated_by }));
  }

  async getDefinition(integration: string, file: string): Promise<DefinitionRecord> {
    return this.definition(integration, file);
  }

  private definition(integration: string, file: string): DefinitionRecord {
    this.require(integration);
    const row = this.db
      .prepare('SELECT file, content, length(content) AS bytes, updated_at, updated_by FROM integration_definitions WHERE integration = ? AND file = ?')
      .get(integration, file) as { file: string; content: Buffer; bytes: number; updated_at: number; updated_by: string } | undefined;
    if (!row) throw refuse({ reason: 'missing-definition', integration, file });
    return { file: row.file, content: row.content, bytes: row.bytes, updatedAt: row.updated_at, updatedBy: row.updated_by };
  }

  async putDefinition(integration: string, file: string, content: Buffer, actor: string): Promise<boolean> {
    return this.db.transaction(() => {
      this.ensureNow(integration, actor);
      const now = Date.now();
      const existed = this.db.prepare('SELECT 1 FROM integration_definitions WHERE integration = ? AND file = ?').get(integration, file) !== undefined;
      this.db
        .prepare(
          `INSERT INTO integration_definitions (integration, file, content, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (integration, file) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
        )
        .run(integration, file, content, now, actor);
      this.touch(integration, actor, now);
      return !existed;
    })();
  }

  async deleteDefinition(integration: string, file: string, actor: string): Promise<void> {
    this.db.transaction(() => {
      this.definition(integration, file);
      this.db.prepare('DELETE FROM integration_definitions WHERE integration = ? AND file = ?').run(integration, file);
      this.touch(integration, actor, Date.now());
    })();
  }

  /* ---------- the whole working copy ---------- */

  async files(integration: string): Promise<IntegrationFiles> {
    return this.filesNow(integration);
  }

  /** The working copy now, inside the caller's transaction (a tag freezing it). */
  filesNow(integration: string): IntegrationFiles {
    this.require(integration);
    const definitions = this.db.prepare('SELECT file, content FROM integration_definitions WHERE integration = ? ORDER BY file').all(integration) as Array<{
      file: string;
      content: Buffer;
    }>;
    const resources = this.db.prepare('SELECT kind, name, content FROM integration_resources WHERE integration = ? ORDER BY position').all(integration) as Array<{
      kind: ResourceKind;
      name: string;
      content: Buffer;
    }>;
    return { definitions, resources };
  }

  async replace(integration: string, files: IntegrationFiles, actor: string): Promise<void> {
    const seen = new Set(files.resources.map((r) => r.name));
    this.db.transaction(() => {
      this.ensureNow(integration, actor);
      const now = Date.now();
      const existing = new Map(
        (this.db.prepare('SELECT id, kind, name, content FROM integration_resources WHERE integration = ?').all(integration) as Array<{
          id: string;
          kind: string;
          name: string;
          content: Buffer;
        }>).map((r) => [r.name, r]),
      );
      this.db.prepare('DELETE FROM integration_definitions WHERE integration = ?').run(integration);
      const insertDefinition = this.db.prepare('INSERT INTO integration_definitions (integration, file, content, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)');
      for (const d of files.definitions) insertDefinition.run(integration, d.file, d.content, now, actor);
      for (const [name, r] of existing) if (!seen.has(name)) this.db.prepare('DELETE FROM integration_resources WHERE id = ?').run(r.id);
      const insert = this.db.prepare(
        `INSERT INTO integration_resources (id, integration, position, kind, name, content, version, created_at, created_by, updated_at, updated_by)
         VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
      );
      const update = this.db.prepare(
        'UPDATE integration_resources SET position = ?, kind = ?, content = ?, version = version + 1, updated_at = ?, updated_by = ? WHERE id = ?',
      );
      const move = this.db.prepare('UPDATE integration_resources SET position = ? WHERE id = ?');
      files.resources.forEach((r, i) => {
        const prior = existing.get(r.name);
        if (!prior) insert.run(`res_${randomBytes(9).toString('base64url')}`, integration, i + 1, r.kind, r.name, r.content, now, actor, now, actor);
        // An unchanged resource keeps its version and authorship; only its place may move.
        else if (prior.kind === r.kind && prior.content.equals(r.content)) move.run(i + 1, prior.id);
        else update.run(i + 1, r.kind, r.content, now, actor, prior.id);
      });
      this.touch(integration, actor, now);
    })();
  }

  private refuseDuplicate(integration: string, name: string, exceptId: string | undefined): void {
    const other = this.db.prepare('SELECT id, kind FROM integration_resources WHERE integration = ? AND name = ?').get(integration, name) as
      | { id: string; kind: string }
      | undefined;
    if (other && other.id !== exceptId) throw refuse({ reason: 'duplicate-resource', integration, name, other });
  }

  private touch(integration: string, actor: string, now: number): void {
    this.db.prepare('UPDATE integrations SET updated_at = ?, updated_by = ? WHERE id = ?').run(now, actor, integration);
  }
}
