import type { RunSummary } from '../../../shared/trace-types.ts';
import { detailLine, newestLines } from '../state/history-batches.ts';
import { HistoryWriter } from '../state/history-writer.ts';
import type { StudioDb } from '../state/studio-db.ts';
import type { RestoredRun, RunKeeper, RunRecord } from './run-record.ts';

interface Dirty {
  record: RunRecord;
  /** Its steps' text as it was when it changed: the store may drop it from memory before the write. */
  detailText: string | undefined;
}

/** A run's meta line: its summary, search texts and bytes, as written and read. */
type RunMeta = [summary: RunSummary, searchText: string, stepText: string | null, bytes: number];

const KIND = 'runs';

/**
 * The run store's runs in studio.db, so a restart lists them again with their steps. Runs are
 * written in batches (history-batches.ts): a run's summary and search texts as its meta line, its
 * steps as its detail line, written when it is added (a later change writes its meta again) and
 * read back only when it is opened.
 */
export class RunHistory implements RunKeeper {
  private readonly writer: HistoryWriter<Dirty>;

  constructor(
    private readonly db: StudioDb,
    onError: (err: unknown) => void = () => {},
  ) {
    this.writer = new HistoryWriter<Dirty>(db, { kind: KIND, line: (d) => lineOf(d.record, d.detailText) }, onError);
  }

  /** The newest `limit` runs on disk, oldest first, without their steps. */
  load(limit: number): RestoredRun[] {
    const out: RestoredRun[] = [];
    for (const { key, meta } of newestLines(this.db, KIND, limit)) {
      let parsed: RunMeta;
      try {
        parsed = JSON.parse(meta) as RunMeta;
      } catch {
        continue;
      }
      const [summary, searchText, stepText, bytes] = parsed;
      out.push({ seq: key, summary, searchText, stepText: stepText ?? undefined, bytes });
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

  detailTextOf(seq: number): string | undefined {
    const pending = this.writer.pending(seq)?.detailText;
    if (pending !== undefined) return pending;
    // Handed to the history thread and maybe not in the file yet: waits for it.
    this.writer.flush();
    return detailLine(this.db, KIND, seq);
  }

  flush(): void {
    this.writer.flush();
  }
}

/** The run's lines: its detail only when known (a run changed after its steps left memory has none). */
function lineOf(record: RunRecord, detailText: string | undefined): { meta: string; detail?: string } {
  const meta: RunMeta = [record.summary, record.searchText, record.stepText ?? null, record.bytes];
  return detailText === undefined ? { meta: JSON.stringify(meta) } : { meta: JSON.stringify(meta), detail: detailText };
}
