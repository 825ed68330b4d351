import { randomBytes } from 'node:crypto';
import type { Db } from '../store/database.ts';
import type { ResourceKind } from '../store/resource-store.ts';
import { checkBundleResources, checkKind, duplicateResource, missingDefinition, missingIntegration, missingResource, resourceVersionConflict } from './management-errors.ts';
import { checkResourceName } from './names.ts';

export interface Authored {
  updatedAt: number;
  updatedBy: string;
}

export interface IntegrationInfo extends Authored {
  id: string;
  createdAt: number;
  createdBy: string;
  definitions: number;
  resources: number;
  tags: number;
}

export interface ResourceInfo extends Authored {
  id: string;
  integration: string;
  kind: ResourceKind;
  name: string;
  /** Size of the content in bytes. */
  bytes: number;
  /** Starts at 1; every update adds one. */
  version: number;
  createdAt: number;
  createdBy: string;
}

export interface ResourceRecord extends ResourceInfo {
  content: Buffer;
}

export interface DefinitionInfo extends Authored {
  file: string;
  bytes: number;
}

export interface DefinitionRecord extends DefinitionInfo {
  content: Buffer;
}

/** What a bundle or a tag holds: definitions by file, resources in declared order. */
export interface IntegrationFiles {
  definitions: Array<{ file: string; content: Buffer }>;
  resources: Array<{ kind: ResourceKind; name: string; content: Buffer }>;
}

export interface ResourcePatch {
  kind?: ResourceKind;
  name?: string;
  content?: Buffer;
}

export interface ResourceRow {
  id: string;
  integration: string;
  kind: ResourceKind;
  name: string;
  bytes: number;
  version: number;
  created_at: number;
  created_by: string;
  updated_at: number;
  updated_by: string;
  content?: Buffer;
}

export const RESOURCE_COLUMNS = 'id, integration, kind, name, length(content) AS bytes, version, created_at, created_by, updated_at, updated_by';

/**
 * The working copy of each integration: its flow definitions (root-level YAML files) and its
 * resources, in declared order. Every write records who made it and when, and creates the
 * integration when it is new.
 */
export class IntegrationStore {
  constructor(private readonly db: Db) {}

  list(): IntegrationInfo[] {
    return (this.db.prepare(`SELECT ${INTEGRATION_SELECT} FROM integrations i ORDER BY i.id`).all() as IntegrationRow[]).map(integrationInfo);
  }

  get(id: string): IntegrationInfo | undefined {
    const row = this.db.prepare(`SELECT ${INTEGRATION_SELECT} FROM integrations i WHERE i.id = ?`).get(id) as IntegrationRow | undefined;
    return row && integrationInfo(row);
  }

  /** The integration, or a 404 that says how one comes to exist. */
  require(id: string): IntegrationInfo {
    const found = this.get(id);
    if (!found) throw missingIntegration(id);
    return found;
  }

  /** Creates the integration when missing; true when it was created. */
  ensure(id: string, actor: string): boolean {
    const now = Date.now();
    const created = this.db
      .prepare('INSERT INTO integrations (id, created_at, created_by, updated_at, updated_by) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING')
      .run(id, now, actor, now, actor);
    return created.changes === 1;
  }

  /* ---------- resources ---------- */

  listResources(integration: string): ResourceInfo[] {
    this.require(integration);
    const rows = this.db.prepare(`SELECT ${RESOURCE_COLUMNS} FROM integration_resources WHERE integration = ? ORDER BY position`).all(integration) as ResourceRow[];
    return rows.map(resourceInfo);
  }

  getResource(integration: string, id: string): ResourceRecord {
    this.require(integration);
    const row = this.db.prepare(`SELECT ${RESOURCE_COLUMNS}, content FROM integration_resources WHERE integration = ? AND id = ?`).get(integration, id) as
      | ResourceRow
      | undefined;
    if (!row) throw missingResource(integration, id);
    return { ...resourceInfo(row), content: row.content! };
  }

  createResource(integration: string, input: { kind: ResourceKind; name: string; content: Buffer }, actor: string): ResourceRecord {
    checkKind(input.kind);
    checkResourceName(input.name);
    const id = `res_${randomBytes(9).toString('base64url')}`;
    this.db.transaction(() => {
      this.ensure(integration, actor);
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
    return this.getResource(integration, id);
  }

  /** Applies the patch; `expectedVersion` 0 writes unconditionally, a positive one must match. */
  updateResource(integration: string, id: string, patch: ResourcePatch, expectedVersion: number, actor: string): ResourceRecord {
    if (patch.kind !== undefined) checkKind(patch.kind);
    if (patch.name !== undefined) checkResourceName(patch.name);
    this.db.transaction(() => {
      const current = this.getResource(integration, id);
      if (expectedVersion > 0 && expectedVersion !== current.version) {
        throw resourceVersionConflict(current.name, current.version, expectedVersion);
      }
      if (patch.name !== undefined && patch.name !== current.name) this.refuseDuplicate(integration, patch.name, id);
      const now = Date.now();
      this.db
        .prepare('UPDATE integration_resources SET kind = ?, name = ?, content = ?, version = version + 1, updated_at = ?, updated_by = ? WHERE id = ?')
        .run(patch.kind ?? current.kind, patch.name ?? current.name, patch.content ?? current.content, now, actor, id);
      this.touch(integration, actor, now);
    })();
    return this.getResource(integration, id);
  }

  deleteResource(integration: string, id: string, actor: string): ResourceInfo {
    return this.db.transaction(() => {
      const current = this.getResource(integration, id);
      this.db.prepare('DELETE FROM integration_resources WHERE id = ?').run(id);
      this.touch(integration, actor, Date.now());
      return current;
    })();
  }

  /* ---------- definitions ---------- */

  listDefinitions(integration: string): DefinitionInfo[] {
    this.require(integration);
    return (
      this.db
        .prepare('SELECT file, length(content) AS bytes, updated_at, updated_by FROM integration_definitions WHERE integration = ? ORDER BY file')
        .all(integration) as Array<{ file: string; bytes: number; updated_at: number; updated_by: string }>
    ).map((r) => ({ file: r.file, bytes: r.bytes, updatedAt: r.updated_at, updatedBy: r.updated_by }));
  }

  getDefinition(integration: string, file: string): DefinitionRecord {
    this.require(integration);
    const row = this.db
      .prepare('SELECT file, content, length(content) AS bytes, updated_at, updated_by FROM integration_definitions WHERE integration = ? AND file = ?')
      .get(integration, file) as { file: string; content: Buffer; bytes: number; updated_at: number; updated_by: string } | undefined;
    if (!row) throw missingDefinition(integration, file);
    return { file: row.file, content: row.content, bytes: row.bytes, updatedAt: row.updated_at, updatedBy: row.updated_by };
  }

  /** Creates or replaces a definition file; true when it was created. */
  putDefinition(integration: string, file: string, content: Buffer, actor: string): boolean {
    return this.db.transaction(() => {
      this.ensure(integration, actor);
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

  deleteDefinition(integration: string, file: string, actor: string): void {
    this.db.transaction(() => {
      this.getDefinition(integration, file);
      this.db.prepare('DELETE FROM integration_definitions WHERE integration = ? AND file = ?').run(integration, file);
      this.touch(integration, actor, Date.now());
    })();
  }

  /* ---------- the whole working copy ---------- */

  /** Definitions and resources with their content, resources in declared order. */
  files(integration: string): IntegrationFiles {
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

  /**
   * Replaces the working copy with `files` in one transaction (a bundle upload). A resource whose
   * name survives keeps its id; its version moves on when its kind or content changed.
   */
  replace(integration: string, files: IntegrationFiles, actor: string): void {
    const seen = checkBundleResources(files);
    this.db.transaction(() => {
      this.ensure(integration, actor);
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
    if (other && other.id !== exceptId) throw duplicateResource(integration, name, other);
  }

  private touch(integration: string, actor: string, now: number): void {
    this.db.prepare('UPDATE integrations SET updated_at = ?, updated_by = ? WHERE id = ?').run(now, actor, integration);
  }
}


export interface IntegrationRow {
  id: string;
  created_at: number;
  created_by: string;
  updated_at: number;
  updated_by: string;
  definitions: number;
  resources: number;
  tags: number;
}

export const INTEGRATION_SELECT = `i.id, i.created_at, i.created_by, i.updated_at, i.updated_by,
  (SELECT COUNT(*) FROM integration_definitions d WHERE d.integration = i.id) AS definitions,
  (SELECT COUNT(*) FROM integration_resources r WHERE r.integration = i.id) AS resources,
  (SELECT COUNT(*) FROM snapshots s WHERE s.integration = i.id) AS tags`;

export function integrationInfo(r: IntegrationRow): IntegrationInfo {
  return {
    id: r.id,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
    definitions: r.definitions,
    resources: r.resources,
    tags: r.tags,
  };
}

export function resourceInfo(r: ResourceRow): ResourceInfo {
  return {
    id: r.id,
    integration: r.integration,
    kind: r.kind,
    name: r.name,
    bytes: r.bytes,
    version: r.version,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
  };
}
