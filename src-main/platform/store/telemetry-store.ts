import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';

export interface TelemetryRecord {
  id: number;
  receivedAt: number;
  record: unknown;
}

export interface Retention {
  /** Most records kept; the oldest go first. */
  records: number;
  /** Records older than this are deleted. */
  seconds: number;
}

/**
 * Trace or log records as the runtime sent them, kept within a retention of count and age.
 * Pruning runs after enough inserts and from the server's periodic sweep, never per request.
 */
export class TelemetryStore {
  private readonly insert: Statement<[number, string]>;
  private readonly pruneByCount: Statement<[number]>;
  private readonly pruneByAge: Statement<[number]>;
  private readonly page: Statement<[number, number]>;
  private sincePrune = 0;
  readonly append: (records: unknown[]) => void;

  constructor(
    db: Db,
    table: 'trace_records' | 'log_records',
    private readonly retention: Retention,
  ) {
    this.insert = db.prepare(`INSERT INTO ${table} (received_at, record) VALUES (?, ?)`);
    this.pruneByCount = db.prepare(`DELETE FROM ${table} WHERE id <= (SELECT MAX(id) FROM ${table}) - ?`);
    this.pruneByAge = db.prepare(`DELETE FROM ${table} WHERE received_at < ?`);
    this.page = db.prepare(`SELECT id, received_at AS receivedAt, record FROM ${table} WHERE id < ? ORDER BY id DESC LIMIT ?`);
    const insertAll = db.transaction((records: unknown[]) => {
      const now = Date.now();
      for (const r of records) this.insert.run(now, JSON.stringify(r));
    });
    this.append = (records) => {
      insertAll(records);
      this.sincePrune += records.length;
      if (this.sincePrune >= Math.max(1, Math.min(1000, Math.floor(this.retention.records / 10)))) this.prune();
    };
  }

  prune(): void {
    this.sincePrune = 0;
    this.pruneByCount.run(this.retention.records);
    this.pruneByAge.run(Date.now() - this.retention.seconds * 1000);
  }

  /** Newest first; pass the smallest id of a page as `beforeId` for the next one. */
  list(options: { limit?: number; beforeId?: number } = {}): TelemetryRecord[] {
    const rows = this.page.all(options.beforeId ?? Number.MAX_SAFE_INTEGER, options.limit ?? 100) as Array<{ id: number; receivedAt: number; record: string }>;
    return rows.map((r) => ({ id: r.id, receivedAt: r.receivedAt, record: JSON.parse(r.record) }));
  }
}
