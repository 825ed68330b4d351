import type { Statement } from 'better-sqlite3';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { HistoryWriter } from '../state/history-writer.ts';
import type { StudioDb } from '../state/studio-db.ts';
import type { RestoredRun, RunKeeper, RunRecord } from './run-record.ts';

interface Dirty {
  record: RunRecord;
  /** Its steps' text as it was when it changed: the store may drop it from memory before the write. */
  detailText: string | undefined;
}

/**
 * The run store's runs in studio.db, so a restart lists them again with their steps. A run's
 * steps are written once, when it is added (a later change writes its summary), and read back
 * only when it is opened.
 */
export class RunHistory implements RunKeeper {
  private readonly writer: HistoryWriter<Dirty>;
  private readonly readDetail: Statement;

  constructor(
    private readonly db: StudioDb,
    onError: (err: unknown) => void = () => {},
  ) {
    const upsert = `INSERT INTO runs (seq, run_id, integration, started_at, summary, search_text, step_text, detail, bytes)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (seq) DO UPDATE SET summary = excluded.summary, search_text = excluded.search_text,
        step_text = COALESCE(excluded.step_text, runs.step_text), detail = COALESCE(excluded.detail, runs.detail), bytes = excluded.bytes`;
    this.writer = new HistoryWriter<Dirty>(db, { table: 'runs', key: 'seq', upsert, row: (d) => rowOf(d.record, d.detailText) }, onError);
    this.readDetail = db.prepare('SELECT detail FROM runs WHERE run_id = ? ORDER BY seq DESC LIMIT 1');
  }

  /** The newest `limit` runs on disk, oldest first, without their steps. */
  load(limit: number): RestoredRun[] {
    const rows = this.db
      .prepare('SELECT seq, summary, search_text AS searchText, step_text AS stepText, bytes FROM runs ORDER BY seq DESC LIMIT ?')
      .all(limit) as Array<{ seq: number; summary: string; searchText: string; stepText: string | null; bytes: number }>;
    const out: RestoredRun[] = [];
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      let summary: RunSummary;
      try {
        summary = JSON.parse(row.summary) as RunSummary;
      } catch {
        continue;
      }
      out.push({ seq: row.seq, summary, searchText: row.searchText, stepText: row.stepText ?? undefined, bytes: row.bytes });
    }
    return out;
  }

  kept(record: RunRecord): void {
    this.writer.put(record.seq, { record, detailText: record.detailText ?? this.writer.pending(record.seq)?.detailText });
  }

  forgotUpTo(seq: number): void {
    this.writer.forget(seq);
  }

  cleared(): void {
    this.writer.clear();
  }

  detailTextOf(runId: string): string | undefined {
    for (const d of this.writer.pendingItems()) if (d.record.summary.runId === runId && d.detailText !== undefined) return d.detailText;
    // Handed to the history thread and maybe not in the file yet: waits for it.
    this.writer.flush();
    const row = this.readDetail.get(runId) as { detail: string | null } | undefined;
    return row?.detail ?? undefined;
  }

  flush(): void {
    this.writer.flush();
  }
}

/** The upsert's parameters, in its order. */
function rowOf(record: RunRecord, detailText: string | undefined): unknown[] {
  const s = record.summary;
  return [
    record.seq,
    s.runId,
    s.integration,
    Math.round(s.startedAt),
    JSON.stringify(s),
    record.searchText,
    record.stepText ?? null,
    detailText ?? null,
    record.bytes,
  ];
}
