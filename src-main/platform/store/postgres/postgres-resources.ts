import type pg from 'pg';
import type { ResourceKind, ResourceStore } from '../resource-store.ts';

/** Integration resources served to runtimes, in PostgreSQL. */
export class PostgresResources implements ResourceStore {
  constructor(private readonly pool: pg.Pool) {}

  async read(kind: ResourceKind, name: string): Promise<Buffer | undefined> {
    const { rows } = await this.pool.query<{ content: Buffer }>('SELECT content FROM resources WHERE kind = $1 AND name = $2', [kind, name]);
    return rows[0]?.content;
  }

  async write(kind: ResourceKind, name: string, content: Buffer, updatedBy: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO resources (kind, name, content, updated_at, updated_by) VALUES ($1, $2, $3, flow_now_ms(), $4)
       ON CONFLICT (kind, name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [kind, name, content, updatedBy],
    );
  }
}
