import type pg from 'pg';
import type { TelemetryBackend } from '../platform-store.ts';
import type { Retention, TelemetryRecord } from '../telemetry-store.ts';

/** Trace or log records on PostgreSQL, kept within a retention of count and age like the SQLite store. */
export class PostgresTelemetry implements TelemetryBackend {
  private sincePrune = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly table: 'trace_records' | 'log_records',
    private readonly retention: Retention,
  ) {}

  async append(records: unknown[]): Promise<void> {
    await this.pool.query(`INSERT INTO ${this.table} (received_at, record) SELECT flow_now_ms(), r FROM unnest($1::text[]) WITH ORDINALITY AS t(r, i) ORDER BY i`, [
      records.map((r) => JSON.stringify(r)),
    ]);
    this.sincePrune += records.length;
    if (this.sincePrune >= Math.max(1, Math.min(1000, Math.floor(this.retention.records / 10)))) await this.prune();
  }

  async prune(): Promise<void> {
    this.sincePrune = 0;
    const t = this.table;
    // Ids from a sequence shared by replicas may have gaps, so count rows rather than subtract ids.
    await this.pool.query(`DELETE FROM ${t} WHERE id < (SELECT min(id) FROM (SELECT id FROM ${t} ORDER BY id DESC LIMIT $1) newest)`, [this.retention.records]);
    await this.pool.query(`DELETE FROM ${t} WHERE received_at < flow_now_ms() - $1`, [this.retention.seconds * 1000]);
  }

  async list(options: { limit?: number; beforeId?: number } = {}): Promise<TelemetryRecord[]> {
    const { rows } = await this.pool.query<{ id: number; receivedAt: number; record: string }>(
      `SELECT id, received_at AS "receivedAt", record FROM ${this.table} WHERE id < $1 ORDER BY id DESC LIMIT $2`,
      [options.beforeId ?? Number.MAX_SAFE_INTEGER, options.limit ?? 100],
    );
    return rows.map((r) => ({ id: r.id, receivedAt: r.receivedAt, record: JSON.parse(r.record) as unknown }));
  }
}
