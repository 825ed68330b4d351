import type pg from 'pg';
import type { TelemetryBackend } from '../platform-store.ts';
import type { Retention, TelemetryRecord } from '../telemetry-store.ts';

/**
 * Trace or log records on PostgreSQL, a row per record, within the SQLite store's retention of
 * count, bytes of record JSON and age. Each replica adds what it appends to the counts it last
 * read and trims (oldest first) as soon as a bound is passed; a recount after every trim and the
 * periodic sweep take the other replicas' appends into account, so with several replicas the
 * bounds hold at each trim and sweep rather than after every single append.
 */
export class PostgresTelemetry implements TelemetryBackend {
  private keptRecords = 0;
  private keptBytes = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly table: 'trace_records' | 'log_records',
    private readonly retention: Retention,
  ) {}

  get kept(): { records: number; bytes: number } {
    return { records: this.keptRecords, bytes: this.keptBytes };
  }

  async append(records: readonly unknown[]): Promise<void> {
    if (records.length === 0) return;
    const texts = records.map((r) => JSON.stringify(r));
    await this.pool.query(`INSERT INTO ${this.table} (received_at, record) SELECT flow_now_ms(), r FROM unnest($1::text[]) WITH ORDINALITY AS t(r, i) ORDER BY i`, [texts]);
    this.keptRecords += texts.length;
    for (const t of texts) this.keptBytes += Buffer.byteLength(t);
    if (this.keptRecords > this.retention.records || this.keptBytes > this.retention.bytes) await this.trim();
  }

  async prune(): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE received_at < flow_now_ms() - $1`, [this.retention.seconds * 1000]);
    await this.trim();
  }

  /** Reads what is kept now (every replica's records). */
  async recount(): Promise<void> {
    const { rows } = await this.pool.query<{ records: number; bytes: number }>(
      `SELECT count(*)::bigint AS records, COALESCE(sum(octet_length(record)), 0)::bigint AS bytes FROM ${this.table}`,
    );
    this.keptRecords = rows[0].records;
    this.keptBytes = rows[0].bytes;
  }

  async list(options: { limit?: number; beforeId?: number } = {}): Promise<TelemetryRecord[]> {
    const { rows } = await this.pool.query<{ id: number; receivedAt: number; record: string }>(
      `SELECT id, received_at AS "receivedAt", record FROM ${this.table} WHERE id < $1 ORDER BY id DESC LIMIT $2`,
      [options.beforeId ?? Number.MAX_SAFE_INTEGER, options.limit ?? 100],
    );
    return rows.map((r) => ({ id: r.id, receivedAt: r.receivedAt, record: JSON.parse(r.record) as unknown }));
  }

  /** Deletes the oldest records past the count bound or the bytes bound (the newest are kept), then recounts. */
  private async trim(): Promise<void> {
    const t = this.table;
    await this.pool.query(
      `DELETE FROM ${t} WHERE id <= (
         SELECT max(id) FROM (
           SELECT id, row_number() OVER (ORDER BY id DESC) AS n, sum(octet_length(record)) OVER (ORDER BY id DESC) AS acc FROM ${t}
         ) newest WHERE n > $1 OR acc > $2)`,
      [this.retention.records, this.retention.bytes],
    );
    await this.recount();
  }
}
