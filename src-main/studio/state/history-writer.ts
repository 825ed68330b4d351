import type { StudioDb } from './studio-db.ts';

/** How long a change waits to be written with the others that came meanwhile. */
const FLUSH_MS = 250;
/** Items written per transaction; a larger backlog goes on in the next turn of the event loop. */
const BATCH = 2_000;

export interface HistoryTable<T> {
  /** The table and its ordering key: every item has one, growing with age. */
  table: string;
  key: string;
  /** Writes (inserts or updates) one item, inside the writer's transaction. */
  write(item: T): void;
}

/**
 * Writes one kind of history to studio.db in batches, off the request path: changes wait at most
 * a quarter second and go in one transaction, as do the oldest items retention drops and a clear.
 * A failed write (a full disk) is reported and lost, never thrown at the work that made it.
 */
export class HistoryWriter<T> {
  private readonly dirty = new Map<number, T>();
  private forgetUpTo = 0;
  private clearFirst = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: StudioDb,
    private readonly target: HistoryTable<T>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** An item was added or changed; `key` orders it among the others. */
  put(key: number, item: T): void {
    this.dirty.set(key, item);
    this.schedule();
  }

  /** The item not yet written under `key`, if any. */
  pending(key: number): T | undefined {
    return this.dirty.get(key);
  }

  pendingItems(): IterableIterator<T> {
    return this.dirty.values();
  }

  /** Items up to `key` left the history. */
  forget(key: number): void {
    this.forgetUpTo = Math.max(this.forgetUpTo, key);
    for (const k of this.dirty.keys()) if (k <= key) this.dirty.delete(k);
    this.schedule();
  }

  clear(): void {
    this.dirty.clear();
    this.forgetUpTo = 0;
    this.clearFirst = true;
    this.schedule();
  }

  /** Writes what is pending now (on shutdown, or before reading the file). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.write()) {
      // A backlog larger than one batch is written whole.
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.write()) setImmediate(() => this.schedule());
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** One transaction; true when more is pending. */
  private write(): boolean {
    const batch: T[] = [];
    for (const [key, item] of this.dirty) {
      batch.push(item);
      this.dirty.delete(key);
      if (batch.length >= BATCH) break;
    }
    const clear = this.clearFirst;
    const forget = this.forgetUpTo;
    this.clearFirst = false;
    this.forgetUpTo = 0;
    if (!clear && forget === 0 && batch.length === 0) return false;
    const { table, key } = this.target;
    try {
      this.db.transaction(() => {
        if (clear) this.db.exec(`DELETE FROM ${table}`);
        if (forget > 0) this.db.prepare(`DELETE FROM ${table} WHERE ${key} <= ?`).run(forget);
        for (const item of batch) this.target.write(item);
      })();
    } catch (err) {
      this.onError(err);
    }
    return this.dirty.size > 0;
  }
}
