import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { HISTORY_BATCHES_MIGRATION } from './history-batches.ts';

export const STUDIO_DB_FILE = 'studio.db';

export type StudioDb = Database.Database;

/** One step of the studio database's schema, applied once and remembered by its id. */
export interface Migration {
  /** Unique and never reused, e.g. `runs-1`; a feature names its own (`breakpoints-1`). */
  id: string;
  sql: string;
}

/**
 * The studio's own state beside the platform's files in the data folder: its history (runs with
 * their steps, captures, log lines, request history) and what a restart gives back (which
 * integrations ran, the ports `port: 0` connectors were given, each definition version served).
 * Features add tables through their own migrations, so other kinds of state join without
 * touching this list.
 */
export const STUDIO_MIGRATIONS: readonly Migration[] = [
  {
    id: 'settings-1',
    sql: `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  },
  {
    id: 'runs-1',
    sql: `CREATE TABLE runs (
      seq INTEGER PRIMARY KEY,
      run_id TEXT NOT NULL,
      integration TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      summary TEXT NOT NULL,
      search_text TEXT NOT NULL,
      step_text TEXT,
      detail TEXT,
      bytes INTEGER NOT NULL
    );
    CREATE INDEX runs_by_id ON runs (run_id)`,
  },
  {
    id: 'captures-1',
    sql: `CREATE TABLE captures (id INTEGER PRIMARY KEY, integration TEXT NOT NULL, started_at INTEGER NOT NULL, record TEXT NOT NULL, bytes INTEGER NOT NULL)`,
  },
  {
    id: 'logs-1',
    sql: `CREATE TABLE logs (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, integration TEXT, level TEXT NOT NULL, msg TEXT NOT NULL, fields TEXT NOT NULL, bytes INTEGER NOT NULL)`,
  },
  {
    id: 'request-history-1',
    sql: `CREATE TABLE request_history (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, sent_at INTEGER NOT NULL, entry TEXT NOT NULL, bytes INTEGER NOT NULL)`,
  },
  {
    id: 'session-1',
    sql: `CREATE TABLE integration_session (integration TEXT PRIMARY KEY, running INTEGER NOT NULL DEFAULT 0, generation INTEGER NOT NULL DEFAULT 0)`,
  },
  {
    id: 'endpoints-1',
    sql: `CREATE TABLE endpoint_ports (integration TEXT NOT NULL, connector TEXT NOT NULL, port INTEGER NOT NULL, PRIMARY KEY (integration, connector))`,
  },
  {
    id: 'definition-versions-1',
    sql: `CREATE TABLE definition_versions (integration TEXT NOT NULL, digest TEXT NOT NULL, generation INTEGER NOT NULL, loaded_at INTEGER NOT NULL, files TEXT NOT NULL, PRIMARY KEY (integration, digest))`,
  },
  // Runs and captures as batches of lines; the rows of runs-1 and captures-1 move into them.
  HISTORY_BATCHES_MIGRATION,
];

/**
 * Opens (or creates) `studio.db` in the data folder and brings its schema up to date.
 *
 * History is written in batches from the studio's own thread, which also runs the integrations'
 * requests; with synchronous=NORMAL the first commit after each WAL checkpoint syncs the file,
 * 15–20 ms here, as telemetry.db measured. History is diagnostic, so the file runs with
 * synchronous=OFF: a killed studio loses nothing (every commit reaches the OS), an OS crash can
 * lose recent history, and a file that crash damaged is moved aside on the next start.
 */
export function openStudioDb(dataDir: string, warn: (message: string) => void = () => {}): StudioDb {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, STUDIO_DB_FILE);
  try {
    return openFile(file);
  } catch (err) {
    if (!isDamaged(err)) throw err;
    const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    warn(`the studio's history ${file} was damaged (${(err as Error).message}); it was moved to ${aside} and a new one started`);
    return openFile(file);
  }
}

/** Applies the migrations not applied yet, in order, each in its own transaction. */
export function migrate(db: StudioDb, migrations: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS studio_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = new Set((db.prepare('SELECT id FROM studio_migrations').all() as Array<{ id: string }>).map((r) => r.id));
  const record = db.prepare('INSERT INTO studio_migrations (id, applied_at) VALUES (?, ?)');
  for (const m of migrations) {
    if (applied.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.id, Date.now());
    })();
  }
}

function openFile(file: string): StudioDb {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('busy_timeout = 5000');
    migrate(db, STUDIO_MIGRATIONS);
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
