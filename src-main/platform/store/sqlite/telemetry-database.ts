import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './sqlite-database.ts';

export const TELEMETRY_FILE = 'telemetry.db';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS trace_batches (id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, first_id INTEGER NOT NULL, count INTEGER NOT NULL, bytes INTEGER NOT NULL, body TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS trace_batches_age ON trace_batches (received_at);
  CREATE TABLE IF NOT EXISTS log_batches (id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, first_id INTEGER NOT NULL, count INTEGER NOT NULL, bytes INTEGER NOT NULL, body TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS log_batches_age ON log_batches (received_at);
`;

/**
 * Opens the trace and log store, a database file of its own beside platform.db.
 *
 * Traces arrive a batch every millisecond or so, and in WAL mode the connection that first writes
 * after a completed checkpoint syncs the reused WAL's header (synchronous=NORMAL): 15–20 ms on this
 * thread about once a second, which was the traced run's whole p99 excess. Telemetry is diagnostic,
 * so its file runs with synchronous=OFF and never syncs on the request path: a killed process still
 * loses nothing (every commit reaches the OS), an OS crash or power loss can lose or damage recent
 * traces — a damaged file is put aside on the next start, never the platform's state, which stays
 * in platform.db with its own durability.
 */
export function openTelemetryDatabase(dataDir: string, warn: (message: string) => void): Db {
  const file = join(dataDir, TELEMETRY_FILE);
  try {
    return openTelemetryFile(file);
  } catch (err) {
    if (!isDamaged(err)) throw err;
    const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    warn(`the trace and log store ${file} was damaged (${(err as Error).message}); it was moved to ${aside} and a new one started`);
    return openTelemetryFile(file);
  }
}

/** Opens the file as the store runs it (WAL, synchronous=OFF): the telemetry writer's worker opens its own connection with it. */
export function openTelemetryFile(file: string): Db {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('busy_timeout = 5000');
    db.pragma('temp_store = MEMORY');
    db.exec(SCHEMA);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function isDamaged(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB';
}

/**
 * Moves traces and logs a platform.db of an earlier version kept into the telemetry file, once:
 * afterwards platform.db holds no telemetry tables. (New databases create them in their first
 * migrations and lose them here, empty.)
 */
export function moveTelemetryOut(db: Db, telemetryFile: string): void {
  const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('trace_batches', 'log_batches')`).all() as Array<{ name: string }>).map((r) => r.name);
  if (tables.length === 0) return;
  // ATTACH cannot run inside a transaction. In WAL mode a transaction over two files is atomic in
  // each, not across them: a copy that committed without its drop is copied again, ignored.
  db.prepare('ATTACH DATABASE ? AS telemetry').run(telemetryFile);
  try {
    db.transaction(() => {
      for (const table of tables) {
        db.exec(`INSERT OR IGNORE INTO telemetry.${table} (id, received_at, first_id, count, bytes, body) SELECT id, received_at, first_id, count, bytes, body FROM main.${table}`);
        db.exec(`DROP TABLE main.${table}`);
      }
    })();
  } finally {
    db.exec('DETACH DATABASE telemetry');
  }
}
