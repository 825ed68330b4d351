import type { StudioDb } from './studio-db.ts';

/**
 * History kept as batches: each write of a HistoryWriter is one row holding its items as lines
 * of text, `<key>\t<meta>` (and `<key>\t<detail>` for what is read only when one item is opened),
 * so a flood of runs costs SQLite one insert per batch, not one per run with its index. Reading
 * derives the items from the lines: the newest line of a key is the item as it is now (an item
 * changed after it was written is written again in a later batch).
 *
 * Meta and detail are JSON texts (JSON.stringify never writes a raw tab or newline), so a line
 * needs no escaping and one item's line is found in a batch by its key.
 */
export interface HistoryLog<T> {
  /** The kind of history, e.g. `runs`: its batches are told apart by it. */
  kind: string;
  /** The item's line texts, no tab or newline in either. */
  line(item: T): { meta: string; detail?: string };
}

export const HISTORY_BATCHES_MIGRATION = {
  id: 'history-batches-1',
  // AUTOINCREMENT: a batch's id orders it among the others even after every batch was deleted,
  // which `history_forgotten.before_id` relies on.
  sql: `CREATE TABLE history_batches (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      first_key INTEGER NOT NULL,
      last_key INTEGER NOT NULL,
      meta TEXT NOT NULL,
      detail TEXT NOT NULL
    );
    CREATE INDEX history_batches_by_kind ON history_batches (kind, last_key);
    CREATE TABLE history_forgotten (kind TEXT PRIMARY KEY, up_to INTEGER NOT NULL, before_id INTEGER NOT NULL);
    INSERT INTO history_batches (kind, first_key, last_key, meta, detail)
      SELECT 'runs', min(seq), max(seq),
        coalesce(group_concat(CASE WHEN json_valid(summary) THEN seq || char(9) || json_array(json(summary), search_text, step_text, bytes) END, char(10)), ''),
        coalesce(group_concat(CASE WHEN json_valid(detail) THEN seq || char(9) || json(detail) END, char(10)), '')
      FROM runs GROUP BY seq / 256 ORDER BY seq / 256;
    INSERT INTO history_batches (kind, first_key, last_key, meta, detail)
      SELECT 'captures', min(id), max(id),
        coalesce(group_concat(CASE WHEN json_valid(record) THEN id || char(9) || json_array(integration, json(record)) END, char(10)), ''), ''
      FROM captures GROUP BY id / 256 ORDER BY id / 256;
    DROP TABLE runs;
    DROP TABLE captures`,
};

export const INSERT_BATCH = 'INSERT INTO history_batches (kind, first_key, last_key, meta, detail) VALUES (?, ?, ?, ?, ?)';
export const CLEAR_BATCHES = 'DELETE FROM history_batches WHERE kind = ?';
export const CLEAR_FORGOTTEN = 'DELETE FROM history_forgotten WHERE kind = ?';
/**
 * Batches wholly forgotten go; the keys forgotten in the batches that remain are noted, for those
 * batches only (a batch written later is not hidden by it). Forgetting goes from the oldest up, so
 * the last note covers every earlier one; keys start again from 1 only once no batch remains.
 */
export const FORGET_BATCHES = 'DELETE FROM history_batches WHERE kind = ? AND last_key <= ?';
export const NOTE_FORGOTTEN = `INSERT OR REPLACE INTO history_forgotten (kind, up_to, before_id)
  VALUES (@kind, @upTo, (SELECT coalesce(max(id), 0) FROM history_batches WHERE kind = @kind))`;

/** One batch as written: the items' lines joined, and the range of their keys. */
export function batchRow<T>(log: HistoryLog<T>, items: ReadonlyArray<[number, T]>, onError: (err: unknown) => void): unknown[] | undefined {
  const meta: string[] = [];
  const detail: string[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const [key, item] of items) {
    let line: { meta: string; detail?: string };
    try {
      line = log.line(item);
    } catch (err) {
      // An item that cannot be written (a value JSON cannot take) is reported, not the batch lost.
      onError(err);
      continue;
    }
    meta.push(`${key}\t${line.meta}`);
    if (line.detail !== undefined) detail.push(`${key}\t${line.detail}`);
    if (key < first) first = key;
    if (key > last) last = key;
  }
  if (meta.length === 0) return undefined;
  return [log.kind, first, last, meta.join('\n'), detail.join('\n')];
}

/** One item as read back: its key and its meta text. */
export interface HistoryLine {
  key: number;
  meta: string;
}

interface BatchRow {
  id: number;
  last_key: number;
  meta: string;
}

/**
 * The newest `limit` items of a kind (by key), oldest first, each as its latest line. Batches are
 * read newest first and stop once no older batch can hold one of the newest `limit` keys.
 */
export function newestLines(db: StudioDb, kind: string, limit: number): HistoryLine[] {
  const forgotten = forgottenOf(db, kind);
  const latest = new Map<number, string>();
  const rows = db.prepare('SELECT id, last_key, meta FROM history_batches WHERE kind = ? ORDER BY id DESC').iterate(kind) as IterableIterator<BatchRow>;
  let floor = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    if (latest.size >= limit && row.last_key < floor) break;
    const hidden = forgotten && row.id <= forgotten.before_id ? forgotten.up_to : Number.NEGATIVE_INFINITY;
    for (const line of row.meta.split('\n')) {
      const tab = line.indexOf('\t');
      const key = Number(line.slice(0, tab));
      if (tab < 0 || !Number.isSafeInteger(key) || key <= hidden || latest.has(key)) continue;
      latest.set(key, line.slice(tab + 1));
    }
    if (latest.size >= limit) floor = nthLargest([...latest.keys()], limit);
  }
  const keys = [...latest.keys()].sort((a, b) => a - b).slice(-limit);
  return keys.map((key) => ({ key, meta: latest.get(key)! }));
}

/** The detail text of the item under `key`, from the newest batch that holds one. */
export function detailLine(db: StudioDb, kind: string, key: number): string | undefined {
  const rows = db
    .prepare("SELECT detail FROM history_batches WHERE kind = @kind AND first_key <= @key AND last_key >= @key AND detail != '' ORDER BY id DESC")
    .iterate({ kind, key }) as IterableIterator<{ detail: string }>;
  const prefix = `${key}\t`;
  for (const { detail } of rows) {
    const at = detail.startsWith(prefix) ? 0 : lineStart(detail, prefix);
    if (at < 0) continue;
    const end = detail.indexOf('\n', at);
    return detail.slice(at + prefix.length, end < 0 ? undefined : end);
  }
  return undefined;
}

/** Where the line beginning with `prefix` begins after the first, or -1. */
function lineStart(text: string, prefix: string): number {
  const at = text.indexOf(`\n${prefix}`);
  return at < 0 ? -1 : at + 1;
}

function forgottenOf(db: StudioDb, kind: string): { up_to: number; before_id: number } | undefined {
  return db.prepare('SELECT up_to, before_id FROM history_forgotten WHERE kind = ?').get(kind) as { up_to: number; before_id: number } | undefined;
}

function nthLargest(keys: number[], n: number): number {
  keys.sort((a, b) => b - a);
  return keys[Math.min(n, keys.length) - 1];
}
