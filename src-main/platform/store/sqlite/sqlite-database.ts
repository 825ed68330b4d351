import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrations } from './sqlite-migrations.ts';

export type Db = Database.Database;

export const DATABASE_FILE = 'platform.db';

/**
 * Opens (creating when needed) the platform database in the data directory.
 *
 * WAL with synchronous=NORMAL: a commit is written to the WAL file before the call returns, so
 * everything answered 2xx survives the process being killed; only an OS crash or power loss can
 * lose the last transactions, which is the trade-off for not fsyncing every write.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  // Deleted content is zeroed in the pages it lived in, where that costs no extra I/O.
  db.pragma('secure_delete = FAST');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(`the platform database is at schema ${current}, newer than this server knows (${migrations.length}); use a newer flow-studio`);
  }
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** A counter in the meta table that only moves forward and survives restarts. */
export class MetaCounter {
  private value: number;
  private readonly save: Database.Statement;

  constructor(db: Db, readonly name: string, floor = 0) {
    const row = db.prepare('SELECT value FROM meta WHERE name = ?').get(name) as { value: number } | undefined;
    this.value = Math.max(row?.value ?? 0, floor);
    this.save = db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  }

  /** The next value, not yet persisted; call `persist()` in the same transaction when needed. */
  next(): number {
    return ++this.value;
  }

  get current(): number {
    return this.value;
  }

  persist(): void {
    this.save.run(this.name, this.value);
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes the whole WAL back into the database file and truncates it, so no copy of what was
 * written stays in it. The WAL checkpointer's worker may hold the checkpoint lock for a moment
 * (a PASSIVE checkpoint; SQLite then answers busy at once, without the busy handler), so a busy
 * answer is retried briefly. Returns false if the WAL could not be emptied within about a second.
 */
export function truncateWal(db: Db): boolean {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (result?.busy === 0) return true;
    Atomics.wait(pause, 0, 0, 5);
  }
  return false;
}
