import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRun } from './run-replay.ts';

/** The studio's state database in its data folder (shared with the rest of the studio's durable state). */
export const STUDIO_DB = 'studio.db';

/** A breakpoint as kept: the step it is on, with what lets it follow that step when lines move. */
export interface StoredBreakpoint {
  id: number;
  integration: string;
  file: string;
  step: string | undefined;
  line: number;
  block: string | undefined;
  /** The step's text digest when it was set (shared/step-paths.ts followStep). */
  digest: string | undefined;
  condition: string | undefined;
  hitCondition: string | undefined;
  logMessage: string | undefined;
  enabled: boolean;
}

/** Breakpoints of one workspace, kept across restarts. */
export interface BreakpointStore {
  list(): StoredBreakpoint[];
  add(bp: Omit<StoredBreakpoint, 'id'>): StoredBreakpoint;
  update(bp: StoredBreakpoint): void;
  remove(id: number): boolean;
}

/** Runs a debugger recorded with their messages and calls, so a later session can replay them. */
export interface RecordingStore {
  add(integration: string, run: RecordedRun & { traceId?: string }): void;
  /** The newest recording whose run id or trace id is `id`. */
  find(integration: string, id: string): RecordedRun | undefined;
}

/** How many recordings are kept per integration; older ones go first. */
const RECORDINGS_KEPT = 200;

/**
 * The debugger's tables in studio.db, each created if missing (`breakpoints`, `debug_recordings`):
 * written so they fold into the studio database's migration list as they are.
 */
export const DEBUGGER_TABLES = `
  CREATE TABLE IF NOT EXISTS breakpoints (
    id INTEGER PRIMARY KEY, workspace TEXT NOT NULL, integration TEXT NOT NULL, file TEXT NOT NULL,
    step TEXT, line INTEGER NOT NULL, block TEXT, digest TEXT,
    condition TEXT, hit_condition TEXT, log_message TEXT, enabled INTEGER NOT NULL DEFAULT 1
  );
  CREATE INDEX IF NOT EXISTS breakpoints_workspace ON breakpoints (workspace);
  CREATE TABLE IF NOT EXISTS debug_recordings (
    id INTEGER PRIMARY KEY, integration TEXT NOT NULL, run_id TEXT NOT NULL, trace_id TEXT, recorded_at INTEGER NOT NULL, run TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS debug_recordings_run ON debug_recordings (integration, run_id);
  CREATE INDEX IF NOT EXISTS debug_recordings_trace ON debug_recordings (integration, trace_id);
`;

export interface DebuggerDb {
  breakpoints(workspace: string): BreakpointStore;
  recordings: RecordingStore;
  close(): void;
}

/** Opens (creating when needed) studio.db in the data folder with the debugger's tables. */
export function openDebuggerDb(dataDir: string): DebuggerDb {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, STUDIO_DB));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(DEBUGGER_TABLES);
  const columns = 'id, integration, file, step, line, block, digest, condition, hit_condition AS hitCondition, log_message AS logMessage, enabled';
  type Row = Omit<StoredBreakpoint, 'enabled' | 'step' | 'block' | 'digest' | 'condition' | 'hitCondition' | 'logMessage'> & Record<'step' | 'block' | 'digest' | 'condition' | 'hitCondition' | 'logMessage', string | null> & { enabled: number };
  const fromRow = (r: Row): StoredBreakpoint => ({
    id: r.id,
    integration: r.integration,
    file: r.file,
    line: r.line,
    step: r.step ?? undefined,
    block: r.block ?? undefined,
    digest: r.digest ?? undefined,
    condition: r.condition ?? undefined,
    hitCondition: r.hitCondition ?? undefined,
    logMessage: r.logMessage ?? undefined,
    enabled: r.enabled === 1,
  });
  const list = db.prepare(`SELECT ${columns} FROM breakpoints WHERE workspace = ? ORDER BY integration, file, line, id`);
  const insert = db.prepare(
    'INSERT INTO breakpoints (workspace, integration, file, step, line, block, digest, condition, hit_condition, log_message, enabled) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const update = db.prepare('UPDATE breakpoints SET file = ?, step = ?, line = ?, block = ?, digest = ?, condition = ?, hit_condition = ?, log_message = ?, enabled = ? WHERE id = ? AND workspace = ?');
  const remove = db.prepare('DELETE FROM breakpoints WHERE id = ? AND workspace = ?');
  const addRecording = db.prepare('INSERT INTO debug_recordings (integration, run_id, trace_id, recorded_at, run) VALUES (?, ?, ?, ?, ?)');
  const trimRecordings = db.prepare('DELETE FROM debug_recordings WHERE integration = ? AND id NOT IN (SELECT id FROM debug_recordings WHERE integration = ? ORDER BY id DESC LIMIT ?)');
  const findRecording = db.prepare('SELECT run FROM debug_recordings WHERE integration = ? AND (run_id = ? OR trace_id = ?) ORDER BY id DESC LIMIT 1').pluck();
  const nullable = (v: string | undefined): string | null => v ?? null;

  return {
    breakpoints: (workspace) => ({
      list: () => (list.all(workspace) as Row[]).map(fromRow),
      add: (bp) => {
        const info = insert.run(workspace, bp.integration, bp.file, nullable(bp.step), bp.line, nullable(bp.block), nullable(bp.digest), nullable(bp.condition), nullable(bp.hitCondition), nullable(bp.logMessage), bp.enabled ? 1 : 0);
        return { ...bp, id: Number(info.lastInsertRowid) };
      },
      update: (bp) => {
        update.run(bp.file, nullable(bp.step), bp.line, nullable(bp.block), nullable(bp.digest), nullable(bp.condition), nullable(bp.hitCondition), nullable(bp.logMessage), bp.enabled ? 1 : 0, bp.id, workspace);
      },
      remove: (id) => remove.run(id, workspace).changes > 0,
    }),
    recordings: {
      add: db.transaction((integration: string, run: RecordedRun & { traceId?: string }) => {
        addRecording.run(integration, run.runId, run.traceId ?? null, Date.now(), JSON.stringify(run));
        trimRecordings.run(integration, integration, RECORDINGS_KEPT);
      }),
      find: (integration, id) => {
        const text = findRecording.get(integration, id, id) as string | undefined;
        return text === undefined ? undefined : (JSON.parse(text) as RecordedRun);
      },
    },
    close: () => db.close(),
  };
}
