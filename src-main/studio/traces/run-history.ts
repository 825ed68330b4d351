import type { Statement } from 'better-sqlite3';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { HistoryWriter } from '../state/history-writer.ts';
import type { StudioDb } from '../state/studio-db.ts';
import { stepTextOf } from './run-matching.ts';
import type { RestoredRun, RunKeeper, RunRecord, StoredDetail } from './run-record.ts';

interface Dirty {
  record: RunRecord;
  /** Its steps as they were when it changed: the store may drop them from memory before the write. */
  detail: StoredDetail | undefined;
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
    const upsert = db.prepare(`INSERT INTO runs (seq, run_id, integration, started_at, summary, search_text, step_text, detail, bytes)
      VALUES (@seq, @runId, @integration, @startedAt, @summary, @searchText, @stepText, @detail, @bytes)
      ON CONFLICT (seq) DO UPDATE SET summary = excluded.summary, search_text = excluded.search_text,
        step_text = COALESCE(excluded.step_text, runs.step_text), detail = COALESCE(excluded.detail, runs.detail), bytes = excluded.bytes`);
    this.writer = new HistoryWriter<Dirty>(db, { table: 'runs', key: 'seq', write: (d) => upsert.run(rowOf(d.record, d.detail)) }, onError);
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
    this.writer.put(record.seq, { record, detail: record.detail ?? this.writer.pending(record.seq)?.detail });
  }

  forgotUpTo(seq: number): void {
    this.writer.forget(seq);
  }

  cleared(): void {
    this.writer.clear();
  }

  detailOf(runId: string): StoredDetail | undefined {
    for (const d of this.writer.pendingItems()) if (d.record.summary.runId === runId && d.detail) return d.detail;
    const row = this.readDetail.get(runId) as { detail: string | null } | undefined;
    return row?.detail ? (JSON.parse(row.detail) as StoredDetail) : undefined;
  }

  flush(): void {
    this.writer.flush();
  }
}

function rowOf(record: RunRecord, detail: StoredDetail | undefined): Record<string, unknown> {
  const s = record.summary;
  return {
    seq: record.seq,
    runId: s.runId,
    integration: s.integration,
    startedAt: Math.round(s.startedAt),
    summary: JSON.stringify(s),
    searchText: record.searchText,
    stepText: record.stepText ?? (detail ? (stepTextOf(detail.steps) ?? null) : null),
    detail: detail ? JSON.stringify(detail) : null,
    bytes: record.bytes,
  };
}
