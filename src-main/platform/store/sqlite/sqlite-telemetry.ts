import type { Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import { recordsOfText, type Retention, type TelemetryBatch, type TelemetryRecord, type TelemetryStore } from '../telemetry-store.ts';
import type { Db } from './sqlite-database.ts';

interface BatchRow {
  id: number;
  receivedAt: number;
  firstId: number;
  count: number;
  body: string;
}

/**
 * Trace or log records as the runtime sent them, a batch to a row, kept within a retention of
 * count, bytes and age. A batch costs one insert and its JSON text is kept as it arrived, so
 * storing telemetry costs about the same however many records a batch holds. The count and byte
 * bounds hold after every append (whole batches go, oldest first); age is checked at most once a
 * second on append and by the server's periodic sweep.
 */
export class SqliteTelemetry implements TelemetryStore {
  private readonly insert: Statement<[number, number, number, number, string]>;
  private readonly oldest: Statement<[]>;
  private readonly deleteUpTo: Statement<[number]>;
  private readonly pruneByAge: Statement<[number]>;
  private readonly totals: Statement<[]>;
  private readonly page: Statement<[number, number]>;
  private nextRecordId: number;
  private keptRecords = 0;
  private keptBytes = 0;
  private ageCheckedAt = 0;
  /** Insert and trim commit together: one WAL commit per batch. */
  private readonly store: (count: number, body: string) => void;

  constructor(
    db: Db,
    table: 'trace_batches' | 'log_batches',
    private readonly retention: Retention,
    private readonly clock: Clock = systemClock,
  ) {
    this.insert = db.prepare(`INSERT INTO ${table} (received_at, first_id, count, bytes, body) VALUES (?, ?, ?, ?, ?)`);
    this.oldest = db.prepare(`SELECT id, count, bytes FROM ${table} ORDER BY id LIMIT 64`);
    this.deleteUpTo = db.prepare(`DELETE FROM ${table} WHERE id <= ?`);
    this.pruneByAge = db.prepare(`DELETE FROM ${table} WHERE received_at < ?`);
    this.totals = db.prepare(`SELECT COALESCE(SUM(count), 0) AS records, COALESCE(SUM(bytes), 0) AS bytes, COALESCE(MAX(first_id + count), 1) AS next FROM ${table}`);
    this.page = db.prepare(
      `SELECT id, received_at AS receivedAt, first_id AS firstId, count, body FROM ${table} WHERE first_id < ? ORDER BY id DESC LIMIT ?`,
    );
    const t = this.totals.get() as { records: number; bytes: number; next: number };
    this.keptRecords = t.records;
    this.keptBytes = t.bytes;
    this.nextRecordId = t.next;
    this.store = db.transaction((count: number, body: string) => {
      const bytes = Buffer.byteLength(body);
      this.insert.run(this.clock.now(), this.nextRecordId, count, bytes, body);
      this.nextRecordId += count;
      this.keptRecords += count;
      this.keptBytes += bytes;
      if (this.keptRecords > this.retention.records || this.keptBytes > this.retention.bytes) this.trim();
    });
  }

  async append(batch: TelemetryBatch): Promise<void> {
    this.appendNow(batch);
  }

  async prune(): Promise<void> {
    this.pruneNow();
  }

  async list(options: { limit?: number; beforeId?: number } = {}): Promise<TelemetryRecord[]> {
    return this.listNow(options);
  }

  /** Stores one batch: its JSON text as received (an array, or `{records: [...]}`), a row per batch. */
  appendNow(batch: TelemetryBatch): void {
    if (batch.count === 0) return;
    this.store(batch.count, batch.text);
    // Age is checked at most once a second here (a cheap indexed delete), and by the sweep.
    const now = this.clock.now();
    if (now - this.ageCheckedAt >= 1000) {
      this.ageCheckedAt = now;
      if (this.pruneByAge.run(now - this.retention.seconds * 1000).changes > 0) this.recount();
    }
  }

  /** Applies every bound now: age, then count and bytes (the server's periodic sweep). */
  pruneNow(): void {
    this.ageCheckedAt = this.clock.now();
    this.pruneByAge.run(this.ageCheckedAt - this.retention.seconds * 1000);
    this.recount();
    this.trim();
  }

  /** Reads the counts and the next record id from the file again: another connection appended to it. */
  resync(): void {
    const t = this.totals.get() as { records: number; bytes: number; next: number };
    this.keptRecords = t.records;
    this.keptBytes = t.bytes;
    this.nextRecordId = Math.max(this.nextRecordId, t.next);
  }

  private recount(): void {
    const t = this.totals.get() as { records: number; bytes: number };
    this.keptRecords = t.records;
    this.keptBytes = t.bytes;
  }

  /** Records and bytes kept now. */
  get kept(): { records: number; bytes: number } {
    return { records: this.keptRecords, bytes: this.keptBytes };
  }

  /** Newest first; pass the smallest id of a page as `beforeId` for the next one. */
  listNow(options: { limit?: number; beforeId?: number } = {}): TelemetryRecord[] {
    const limit = options.limit ?? 100;
    let before = options.beforeId ?? Number.MAX_SAFE_INTEGER;
    const out: TelemetryRecord[] = [];
    while (out.length < limit) {
      const rows = this.page.all(before, 16) as BatchRow[];
      if (rows.length === 0) break;
      for (const row of rows) {
        const records = recordsOfText(row.body);
        for (let i = records.length - 1; i >= 0 && out.length < limit; i--) {
          const id = row.firstId + i;
          if (id < before) out.push({ id, receivedAt: row.receivedAt, record: records[i] });
        }
        if (out.length >= limit) break;
      }
      before = rows[rows.length - 1].firstId;
    }
    return out;
  }

  /**
   * Deletes whole batches, oldest first, until both bounds hold with 5% to spare. Trimming only to
   * the bound deleted one batch per append once full (a select and a delete every millisecond at
   * full load); the margin makes it one larger delete every few dozen appends.
   */
  private trim(): void {
    const records = this.retention.records * TRIM_TO;
    const bytes = this.retention.bytes * TRIM_TO;
    while (this.keptRecords > records || this.keptBytes > bytes) {
      const rows = this.oldest.all() as Array<{ id: number; count: number; bytes: number }>;
      if (rows.length === 0) return;
      let cut = -1;
      for (const row of rows) {
        if (this.keptRecords <= records && this.keptBytes <= bytes) break;
        cut = row.id;
        this.keptRecords -= row.count;
        this.keptBytes -= row.bytes;
      }
      this.deleteUpTo.run(cut);
    }
  }
}

/** What a trim leaves, as a share of each bound. */
const TRIM_TO = 0.95;
