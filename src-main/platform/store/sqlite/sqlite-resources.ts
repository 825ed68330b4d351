import type { Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import type { ResourceKind, ResourceStore } from '../resource-store.ts';
import type { Db } from './sqlite-database.ts';

/** Integration resources served to runtimes, in the SQLite file. */
export class SqliteResources implements ResourceStore {
  private readonly select: Statement<[string, string]>;
  private readonly upsert: Statement<[string, string, Buffer, number, string]>;

  constructor(
    db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.select = db.prepare('SELECT content FROM resources WHERE kind = ? AND name = ?').pluck();
    this.upsert = db.prepare(
      `INSERT INTO resources (kind, name, content, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (kind, name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    );
  }

  async read(kind: ResourceKind, name: string): Promise<Buffer | undefined> {
    return this.select.get(kind, name) as Buffer | undefined;
  }

  async write(kind: ResourceKind, name: string, content: Buffer, updatedBy: string): Promise<void> {
    this.upsert.run(kind, name, content, this.clock.now(), updatedBy);
  }
}
