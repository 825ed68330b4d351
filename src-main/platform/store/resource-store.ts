import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import { systemClock, type Clock } from '../../../shared/clock.ts';

export type ResourceKind = 'env' | 'template';
export const resourceKinds: readonly ResourceKind[] = ['env', 'template'];

/**
 * Integration resources served to runtimes by GET /v1/resources/content. The management side
 * (resources issue) writes them; until then a seed directory does.
 */
export class ResourceStore {
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

  read(kind: ResourceKind, name: string): Buffer | undefined {
    return this.select.get(kind, name) as Buffer | undefined;
  }

  /** Creates or replaces a resource, recording who wrote it. */
  write(kind: ResourceKind, name: string, content: Buffer, updatedBy: string): void {
    this.upsert.run(kind, name, content, this.clock.now(), updatedBy);
  }
}
