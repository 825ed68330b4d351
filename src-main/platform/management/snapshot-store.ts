import type { Statement } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/database.ts';
import type { ResourceKind } from '../store/resource-store.ts';
import { declaredVariables, type DeclaredVariable } from './declared-variables.ts';
import type { IntegrationStore } from './integration-store.ts';
import { missingSnapshot, missingTag, nothingToTag, tagExists } from './management-errors.ts';

/** A version tag and its frozen copy (spec 2 §3.2). */
export interface Snapshot {
  /** What a deployed runtime carries in FLOW_SNAPSHOT_ID. */
  id: string;
  integration: string;
  tag: string;
  description?: string;
  createdAt: number;
  createdBy: string;
  definitions: Array<{ file: string; bytes: number }>;
  /** In declared order: env resources are folded in it. */
  resources: Array<{ kind: ResourceKind; name: string; bytes: number }>;
  variables: DeclaredVariable[];
}

export interface SnapshotRow {
  id: string;
  integration: string;
  tag: string;
  description: string | null;
  variables: string;
  created_at: number;
  created_by: string;
}

/**
 * Tags freeze an integration's definitions and every resource in one transaction; later edits of
 * the working copy never reach a tag, and a tag is never changed.
 */
export class SnapshotStore {
  private readonly selectContent: Statement<[string, string, string]>;

  constructor(
    private readonly db: Db,
    private readonly integrations: IntegrationStore,
  ) {
    this.selectContent = db.prepare('SELECT content FROM snapshot_resources WHERE snapshot = ? AND kind = ? AND name = ?').pluck();
  }

  createTag(integration: string, tag: string, description: string | undefined, actor: string): Snapshot {
    const id = `snap_${randomBytes(9).toString('base64url')}`;
    this.db.transaction(() => {
      const files = this.integrations.files(integration);
      const taken = this.db.prepare('SELECT id FROM snapshots WHERE integration = ? AND tag = ?').pluck().get(integration, tag);
      if (taken) throw tagExists(integration, tag, String(taken));
      if (files.definitions.length === 0) throw nothingToTag(integration);
      const variables = declaredVariables(files);
      this.db
        .prepare('INSERT INTO snapshots (id, integration, tag, description, variables, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(id, integration, tag, description ?? null, JSON.stringify(variables), Date.now(), actor);
      const definition = this.db.prepare('INSERT INTO snapshot_definitions (snapshot, file, content) VALUES (?, ?, ?)');
      for (const d of files.definitions) definition.run(id, d.file, d.content);
      const resource = this.db.prepare('INSERT INTO snapshot_resources (snapshot, position, kind, name, content) VALUES (?, ?, ?, ?, ?)');
      files.resources.forEach((r, i) => resource.run(id, i + 1, r.kind, r.name, r.content));
    })();
    return this.get(id);
  }

  listTags(integration: string): Snapshot[] {
    this.integrations.require(integration);
    const ids = this.db.prepare('SELECT id FROM snapshots WHERE integration = ? ORDER BY created_at, tag').pluck().all(integration) as string[];
    return ids.map((id) => this.get(id));
  }

  getTag(integration: string, tag: string): Snapshot {
    this.integrations.require(integration);
    const id = this.db.prepare('SELECT id FROM snapshots WHERE integration = ? AND tag = ?').pluck().get(integration, tag) as string | undefined;
    if (!id) throw missingTag(integration, tag);
    return this.get(id);
  }

  get(id: string): Snapshot {
    const row = this.db.prepare('SELECT * FROM snapshots WHERE id = ?').get(id) as SnapshotRow | undefined;
    if (!row) throw missingSnapshot(id);
    return {
      id: row.id,
      integration: row.integration,
      tag: row.tag,
      ...(row.description !== null ? { description: row.description } : {}),
      createdAt: row.created_at,
      createdBy: row.created_by,
      definitions: this.db.prepare('SELECT file, length(content) AS bytes FROM snapshot_definitions WHERE snapshot = ? ORDER BY file').all(id) as Snapshot['definitions'],
      resources: this.db
        .prepare('SELECT kind, name, length(content) AS bytes FROM snapshot_resources WHERE snapshot = ? ORDER BY position')
        .all(id) as Snapshot['resources'],
      variables: JSON.parse(row.variables) as DeclaredVariable[],
    };
  }

  private requireExists(id: string): void {
    if (this.db.prepare('SELECT 1 FROM snapshots WHERE id = ?').get(id) === undefined) throw missingSnapshot(id);
  }

  /** The frozen definition files, for a runtime to load. */
  definitions(id: string): Array<{ file: string; content: Buffer }> {
    this.requireExists(id);
    return this.db.prepare('SELECT file, content FROM snapshot_definitions WHERE snapshot = ? ORDER BY file').all(id) as Array<{ file: string; content: Buffer }>;
  }

  /** A frozen resource's bytes; undefined when the snapshot has none of that kind and name. */
  resourceContent(id: string, kind: ResourceKind, name: string): Buffer | undefined {
    const content = this.selectContent.get(id, kind, name) as Buffer | undefined;
    // Only a miss pays for telling a missing snapshot from a missing resource.
    if (content === undefined) this.requireExists(id);
    return content;
  }
}
