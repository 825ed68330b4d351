import type { Statement } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { IntegrationFiles } from '../integration-store.ts';
import type { ResourceKind } from '../resource-store.ts';
import { snapshotOf, type DeclaredVariable, type Snapshot, type SnapshotRow, type SnapshotStore } from '../snapshot-store.ts';
import { refuse } from '../store-refusal.ts';
import type { Db } from './sqlite-database.ts';
import type { SqliteIntegrations } from './sqlite-integrations.ts';

/** Version tags and their frozen copies in the SQLite file; a tag is frozen in one transaction. */
export class SqliteSnapshots implements SnapshotStore {
  private readonly selectContent: Statement<[string, string, string]>;

  constructor(
    private readonly db: Db,
    private readonly integrations: SqliteIntegrations,
  ) {
    this.selectContent = db.prepare('SELECT content FROM snapshot_resources WHERE snapshot = ? AND kind = ? AND name = ?').pluck();
  }

  async createTag(
    integration: string,
    tag: string,
    description: string | undefined,
    actor: string,
    variablesOf: (files: IntegrationFiles) => DeclaredVariable[],
  ): Promise<Snapshot> {
    const id = `snap_${randomBytes(9).toString('base64url')}`;
    this.db.transaction(() => {
      const files = this.integrations.filesNow(integration);
      const taken = this.db.prepare('SELECT id FROM snapshots WHERE integration = ? AND tag = ?').pluck().get(integration, tag);
      if (taken) throw refuse({ reason: 'tag-exists', integration, tag, snapshot: String(taken) });
      const variables = variablesOf(files);
      this.db
        .prepare('INSERT INTO snapshots (id, integration, tag, description, variables, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(id, integration, tag, description ?? null, JSON.stringify(variables), Date.now(), actor);
      const definition = this.db.prepare('INSERT INTO snapshot_definitions (snapshot, file, content) VALUES (?, ?, ?)');
      for (const d of files.definitions) definition.run(id, d.file, d.content);
      const resource = this.db.prepare('INSERT INTO snapshot_resources (snapshot, position, kind, name, content) VALUES (?, ?, ?, ?, ?)');
      files.resources.forEach((r, i) => resource.run(id, i + 1, r.kind, r.name, r.content));
    })();
    return this.snapshot(id);
  }

  async listTags(integration: string): Promise<Snapshot[]> {
    this.requireIntegration(integration);
    const ids = this.db.prepare('SELECT id FROM snapshots WHERE integration = ? ORDER BY created_at, tag').pluck().all(integration) as string[];
    return ids.map((id) => this.snapshot(id));
  }

  async getTag(integration: string, tag: string): Promise<Snapshot> {
    this.requireIntegration(integration);
    const id = this.db.prepare('SELECT id FROM snapshots WHERE integration = ? AND tag = ?').pluck().get(integration, tag) as string | undefined;
    if (!id) throw refuse({ reason: 'missing-tag', integration, tag });
    return this.snapshot(id);
  }

  async get(id: string): Promise<Snapshot> {
    return this.snapshot(id);
  }

  private requireIntegration(id: string): void {
    if (this.db.prepare('SELECT 1 FROM integrations WHERE id = ?').get(id) === undefined) throw refuse({ reason: 'missing-integration', integration: id });
  }

  private snapshot(id: string): Snapshot {
    const row = this.db.prepare('SELECT * FROM snapshots WHERE id = ?').get(id) as SnapshotRow | undefined;
    if (!row) throw refuse({ reason: 'missing-snapshot', id });
    return snapshotOf(
      row,
      this.db.prepare('SELECT file, length(content) AS bytes FROM snapshot_definitions WHERE snapshot = ? ORDER BY file').all(id) as Snapshot['definitions'],
      this.db.prepare('SELECT kind, name, length(content) AS bytes FROM snapshot_resources WHERE snapshot = ? ORDER BY position').all(id) as Snapshot['resources'],
    );
  }

  private requireExists(id: string): void {
    if (this.db.prepare('SELECT 1 FROM snapshots WHERE id = ?').get(id) === undefined) throw refuse({ reason: 'missing-snapshot', id });
  }

  async definitions(id: string): Promise<Array<{ file: string; content: Buffer }>> {
    this.requireExists(id);
    return this.db.prepare('SELECT file, content FROM snapshot_definitions WHERE snapshot = ? ORDER BY file').all(id) as Array<{ file: string; content: Buffer }>;
  }

  async resourceContent(id: string, kind: ResourceKind, name: string): Promise<Buffer | undefined> {
    const content = this.selectContent.get(id, kind, name) as Buffer | undefined;
    // Only a miss pays for telling a missing snapshot from a missing resource.
    if (content === undefined) this.requireExists(id);
    return content;
  }
}
