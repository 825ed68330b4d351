import type { Statement } from 'better-sqlite3';
import { batchRow, CLEAR_BATCHES, CLEAR_FORGOTTEN, FORGET_BATCHES, INSERT_BATCH, NOTE_FORGOTTEN, type HistoryLog } from './history-batches.ts';
import { historyThreadOf, type HistoryBatch, type HistoryStatement } from './history-thread.ts';
import type { StudioDb } from './studio-db.ts';

/** How long a change waits to be written with the others that came meanwhile. */
const FLUSH_MS = 250;
/**
 * Items written per transaction; a larger backlog goes on in the next turn of the event loop, so
 * making the rows (their JSON) holds the studio's requests up for a few milliseconds at a time,
 * not for the 10-20 ms a quarter second's thousand runs took in one go.
 */
const BATCH = 256;

export interface HistoryTable<T> {
  /** The table and its ordering key: every item has one, growing with age. */
  table: string;
  key: string;
  /** The statement that writes (inserts or updates) one item, with positional parameters. */
  upsert: string;
  /** One item's parameters for `upsert`, in order: text, numbers and nulls only, so a writer thread takes them as they are. */
  row(item: T): unknown[];
}

/** A table of one row per item (HistoryTable), or batches of items as lines (HistoryLog). */
export type HistoryTarget<T> = HistoryTable<T> | HistoryLog<T>;

/**
 * Writes one kind of history to studio.db in batches, off the request path: changes wait at most
 * a quarter second and go in one transaction, as do the oldest items retention drops and a clear.
 * Under load (a flush of HISTORY_THREAD_AFTER_ITEMS items or more) the transaction runs on the
 * studio's history thread (history-thread.ts), which gets the batch's rows as text: what stays
 * on this thread, the request thread of the studio's runs, is making the rows.
 * A failed write (a full disk) is reported and lost, never thrown at the work that made it.
 */
export class HistoryWriter<T> {
  private dirty = new Map<number, T>();
  /**
   * What the timer took to write, a batch a turn (`cursor` is where the next begins); what
   * changes meanwhile waits in `dirty` for the next round.
   */
  private writing: Map<number, T> | undefined;
  private cursor: IterableIterator<[number, T]> | undefined;
  /** Items up to this key left the history since the last write: the next one deletes them. */
  private forgetUpTo = 0;
  /**
   * Items up to this key left for good: one still waiting is not written. Kept past the write
   * that deleted them, as a backlog of several batches is written over several turns.
   */
  private gone = 0;
  private clearFirst = false;
  private timer: NodeJS.Timeout | undefined;
  /** The next batch of `writing`, in the next turn. */
  private next: NodeJS.Immediate | undefined;
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: StudioDb,
    private readonly target: HistoryTarget<T>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** An item was added or changed; `key` orders it among the others. */
  put(key: number, item: T): void {
    this.dirty.set(key, item);
    this.schedule();
  }

  /** The item not yet written (or being written) under `key`, if any. */
  pending(key: number): T | undefined {
    return key <= this.gone ? undefined : (this.dirty.get(key) ?? this.writing?.get(key));
  }

  *pendingItems(): IterableIterator<T> {
    for (const [key, item] of this.dirty) if (key > this.gone) yield item;
    for (const [key, item] of this.writing ?? []) if (key > this.gone) yield item;
  }

  /**
   * Items up to `key` left the history. Noted, not searched for: retention drops the oldest item
   * on every add once a store is full, and looking through the waiting ones each time cost a
   * request as much as writing it.
   */
  forget(key: number): void {
    if (key > this.forgetUpTo) this.forgetUpTo = key;
    if (key > this.gone) this.gone = key;
    this.schedule();
  }

  clear(): void {
    this.dirty.clear();
    this.writing = undefined;
    this.cursor = undefined;
    this.forgetUpTo = 0;
    this.gone = 0;
    this.clearFirst = true;
    this.schedule();
  }

  /**
   * Writes what is pending now (on shutdown, or before reading the file), and waits until it is
   * in the file when the history thread writes it.
   */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.next) clearImmediate(this.next);
    this.next = undefined;
    // The round under way, then one more for what waits.
    while (this.write() || this.waiting()) {
      // A backlog larger than one batch is written whole.
    }
    historyThreadOf(this.db)?.sync();
  }

  private schedule(): void {
    if (this.timer || this.next) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** Writes a batch, and the next in the next turn until what the round took is written. */
  private drain(): void {
    this.next = undefined;
    if (!this.write()) {
      // Changes made while the round was written wait for the next.
      if (this.waiting()) this.schedule();
      return;
    }
    this.next = setImmediate(() => this.drain());
    this.next.unref();
  }

  /** Something for a new round: changed items, items retention dropped, a clear. */
  private waiting(): boolean {
    return this.dirty.size > 0 || this.forgetUpTo > 0 || this.clearFirst;
  }

  /** One transaction; true while the round it belongs to has more to write. */
  private write(): boolean {
    if (!this.cursor) {
      if (!this.waiting()) return false;
      // A new round takes what is waiting now.
      this.writing = this.dirty;
      this.dirty = new Map();
      this.cursor = this.writing.entries();
    }
    const items: Array<[number, T]> = [];
    const gone = this.gone;
    let more = false;
    for (let entry = this.cursor.next(); !entry.done; entry = this.cursor.next()) {
      if (entry.value[0] <= gone) continue;
      items.push(entry.value);
      if (items.length >= BATCH) {
        more = true;
        break;
      }
    }
    if (!more) {
      this.writing = undefined;
      this.cursor = undefined;
    }
    const clear = this.clearFirst;
    const forget = this.forgetUpTo;
    this.clearFirst = false;
    this.forgetUpTo = 0;
    const rows = this.rowsOf(items);
    if (clear || forget > 0 || rows.length > 0) {
      const target = this.target;
      const batch: HistoryBatch =
        'kind' in target
          ? { writer: target.kind, before: logDeletes(target.kind, clear, forget), upsert: INSERT_BATCH, rows }
          : { writer: target.table, before: tableDeletes(target, clear, forget), upsert: target.upsert, rows };
      const thread = historyThreadOf(this.db, items.length);
      if (!thread?.write(batch, this.onError)) this.writeHere(batch);
    }
    return more;
  }

  /** The rows of a batch's items: one per item, or one for all of them. */
  private rowsOf(items: Array<[number, T]>): unknown[][] {
    const target = this.target;
    if ('kind' in target) {
      const row = items.length > 0 ? batchRow(target, items, this.onError) : undefined;
      return row ? [row] : [];
    }
    const rows: unknown[][] = [];
    for (const [, item] of items) {
      try {
        rows.push(target.row(item));
      } catch (err) {
        // An item that cannot be written (a value JSON cannot take) is reported, not the batch lost.
        this.onError(err);
      }
    }
    return rows;
  }

  /** The batch's transaction on this thread's connection. */
  private writeHere({ before, upsert, rows }: HistoryBatch): void {
    try {
      const insert = this.prepared(upsert);
      this.db.transaction(() => {
        for (const statement of before) this.prepared(statement.sql).run(...statement.params);
        for (const row of rows) insert.run(...row);
      })();
    } catch (err) {
      this.onError(err);
    }
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

function tableDeletes<T>({ table, key }: HistoryTable<T>, clear: boolean, forget: number): HistoryStatement[] {
  const out: HistoryStatement[] = [];
  if (clear) out.push({ sql: `DELETE FROM ${table}`, params: [] });
  if (forget > 0) out.push({ sql: `DELETE FROM ${table} WHERE ${key} <= ?`, params: [forget] });
  return out;
}

function logDeletes(kind: string, clear: boolean, forget: number): HistoryStatement[] {
  const out: HistoryStatement[] = [];
  if (clear) out.push({ sql: CLEAR_BATCHES, params: [kind] }, { sql: CLEAR_FORGOTTEN, params: [kind] });
  if (forget > 0) out.push({ sql: FORGET_BATCHES, params: [kind, forget] }, { sql: NOTE_FORGOTTEN, params: [{ kind, upTo: forget }] });
  return out;
}
