import type pg from 'pg';
import { recordsOf, type Retention, type TelemetryBatch, type TelemetryRecord, type TelemetryStore } from '../telemetry-store.ts';

/**
 * Trace or log records on PostgreSQL, a row per record, within the SQLite store's retention of
 * count, bytes of record JSON and age. The count bound holds after every append; age is checked
 * at most once a second and by the sweep. For bytes, each replica adds what it appends to the
 * total it last read and trims (oldest first) once that passes the bound; with several replicas
 * the bytes bound holds at each trim and sweep rather than after every single append.
 */
export class PostgresTelemetry implements TelemetryStore {
  private keptRecords = 0;
  private keptBytes = 0;
  private ageCheckedAt = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly table: 'trace_records' | 'log_records',
    private readonly retention: Retention,
  ) {}

  get kept(): { records: number; bytes: number } {
    return { records: this.keptRecords, bytes: this.keptBytes };
  }

  async append(batch: TelemetryBatch): Promise<void> {
    if (batch.count === 0) return;
    const texts = recordsOf(batch).map((r) => JSON.stringify(r));
    await this.pool.query(`INSERT INTO ${this.table} (received_at, record) SELECT flow_now_ms(), r FROM unnest($1::text[]) WITH ORDINALITY AS t(r, i) ORDER BY i`, [texts]);
    this.keptRecords += texts.length;
    for (const t of texts) this.keptBytes += Buffer.byteLength(t);
    const t = this.table;
    // The count bound holds after every append, whichever replica appended: ids come from one
    // sequence, so this is an index range delete (a rolled-back insert's id only keeps one less).
    const cut = await this.pool.query(`DELETE FROM ${t} WHERE id <= (SELECT max(id) FROM ${t}) - $1`, [this.retention.records]);
    // Age is checked at most once a second here, as on SQLite, and by the sweep.
    const now = Date.now();
    let aged = 0;
    if (now - this.ageCheckedAt >= 1000) {
      this.ageCheckedAt = now;
      aged = (await this.pool.query(`DELETE FROM ${t} WHERE received_at < flow_now_ms() - $1`, [this.retention.seconds * 1000])).rowCount ?? 0;
    }
    if (this.keptBytes > this.retention.bytes) await this.trim();
    else if ((cut.rowCount ?? 0) > 0 || aged > 0 || this.keptRecords > this.retention.records) await this.recount();
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
