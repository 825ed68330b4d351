import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Retention } from '../../../shared/history-types.ts';
import type { BodyView, HistoryEntry } from '../../../shared/request-types.ts';
import { HistoryWriter } from '../state/history-writer.ts';
import type { StudioDb } from '../state/studio-db.ts';

/** Body characters kept per history entry on disk; the composer shows the rest only live. */
const KEPT_BODY_CHARS = 256 * 1024;
/** Where an earlier studio kept the history, read once into studio.db. */
const LEGACY_FILE = 'request-history.json';

interface Kept {
  seq: number;
  entry: HistoryEntry;
  json: string;
}

/**
 * Every request the composer sent, newest first, with its response and stream frames. Kept in
 * studio.db in the data folder (not the workspace: it is a person's scratch pad, not the
 * project's) so it survives a restart; bounded by entries and bytes.
 */
export class RequestHistory {
  private entries: Kept[] = [];
  private bytes = 0;
  private nextSeq = 1;
  private readonly writer: HistoryWriter<Kept>;

  constructor(
    db: StudioDb,
    private retention: Retention,
    dataDir?: string,
    onError: (err: unknown) => void = () => {},
  ) {
    const upsert =
      'INSERT INTO request_history (seq, id, sent_at, entry, bytes) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, sent_at = excluded.sent_at, entry = excluded.entry, bytes = excluded.bytes';
    this.writer = new HistoryWriter<Kept>(db, { table: 'request_history', key: 'seq', upsert, row: (k) => [k.seq, k.entry.id, Math.round(k.entry.sentAt), k.json, k.json.length] }, onError);
    if (dataDir) importLegacy(db, join(dataDir, LEGACY_FILE));
    const rows = db.prepare('SELECT seq, entry FROM request_history ORDER BY seq DESC LIMIT ?').all(retention.count) as Array<{ seq: number; entry: string }>;
    for (const row of rows) {
      try {
        const entry = JSON.parse(row.entry) as HistoryEntry;
        this.entries.push({ seq: row.seq, entry, json: row.entry });
        this.bytes += row.entry.length;
      } catch {
        // A row that does not read is skipped, not fatal.
      }
      this.nextSeq = Math.max(this.nextSeq, row.seq + 1);
    }
    this.trim();
  }

  get usage(): { count: number; bytes: number } {
    return { count: this.entries.length, bytes: this.bytes };
  }

  list(): HistoryEntry[] {
    return this.entries.map((k) => k.entry);
  }

  add(entry: HistoryEntry): void {
    const entryKept: HistoryEntry = { ...entry, response: { ...entry.response, body: shortened(entry.response.body) } };
    const json = JSON.stringify(entryKept);
    const replaced = this.entries.find((k) => k.entry.id === entry.id);
    if (replaced) this.bytes -= replaced.json.length;
    const kept: Kept = { seq: this.nextSeq++, entry: entryKept, json };
    this.entries = [kept, ...this.entries.filter((k) => k.entry.id !== entry.id)];
    this.bytes += json.length;
    this.writer.put(kept.seq, kept);
    this.trim();
  }

  setRetention(retention: Retention): void {
    this.retention = retention;
    this.trim();
  }

  clear(): void {
    this.entries = [];
    this.bytes = 0;
    this.writer.clear();
  }

  /** Writes what is pending now (on shutdown). */
  flush(): void {
    this.writer.flush();
  }

  private trim(): void {
    let last: number | undefined;
    while (this.entries.length > 1 && (this.entries.length > this.retention.count || this.bytes > this.retention.bytes)) {
      const old = this.entries.pop()!;
      this.bytes -= old.json.length;
      last = old.seq;
    }
    if (last !== undefined) this.writer.forget(last);
  }
}

/** Moves an earlier studio's request-history.json into studio.db once, newest first as it was kept. */
function importLegacy(db: StudioDb, file: string): void {
  if (!existsSync(file)) return;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (Array.isArray(parsed)) {
      const insert = db.prepare('INSERT OR IGNORE INTO request_history (seq, id, sent_at, entry, bytes) VALUES (?, ?, ?, ?, ?)');
      const base = (db.prepare('SELECT COALESCE(MAX(seq), 0) AS last FROM request_history').get() as { last: number }).last;
      const entries = (parsed as HistoryEntry[]).filter((e) => e && typeof e.id === 'string');
      db.transaction(() => {
        entries.forEach((e, i) => {
          const json = JSON.stringify(e);
          insert.run(base + entries.length - i, e.id, Math.round(Number(e.sentAt) || 0), json, json.length);
        });
      })();
    }
    renameSync(file, `${file}.imported`);
  } catch {
    // A broken file is left where it is; the history starts afresh rather than refuse to start.
  }
}

function shortened(body: BodyView): BodyView {
  if (body.text !== undefined && body.text.length > KEPT_BODY_CHARS) return { ...body, text: body.text.slice(0, KEPT_BODY_CHARS), truncated: true };
  if (body.base64 !== undefined && body.base64.length > KEPT_BODY_CHARS) return { ...body, base64: body.base64.slice(0, KEPT_BODY_CHARS), truncated: true };
  return body;
}
