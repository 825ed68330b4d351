import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../runtime/index.ts';
import { RunHistory } from '../traces/run-history.ts';
import { RunStore } from '../traces/run-store.ts';
import { newestLines } from './history-batches.ts';
import { closeHistoryThread, HISTORY_THREAD_AFTER_ITEMS, historyThreadOf, startHistoryThread } from './history-thread.ts';
import { HistoryWriter } from './history-writer.ts';
import { openStudioDb, STUDIO_DB_FILE, type StudioDb } from './studio-db.ts';

const dirs: string[] = [];
const open: StudioDb[] = [];
afterEach(() => {
  for (const d of open.splice(0)) {
    closeHistoryThread(d);
    d.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function studioDb(): { dir: string; db: StudioDb } {
  const dir = mkdtempSync(join(tmpdir(), 'studio-history-thread-'));
  dirs.push(dir);
  const db = openStudioDb(dir);
  open.push(db);
  return { dir, db };
}

/** What another connection reads: the file, not this process's pending batches. */
function countIn(dir: string, table: string): number {
  const reader = new Database(join(dir, STUDIO_DB_FILE), { readonly: true });
  try {
    if (table === 'runs') return newestLines(reader, table, Number.POSITIVE_INFINITY).length;
    return (reader.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    reader.close();
  }
}

const run = (i: number): TraceRecord => ({
  kind: 'run',
  flow: 'orders',
  correlationId: `c-${i}`,
  runId: `r${i}`,
  startedAt: 1_000 + i,
  durationMs: 1,
  outcome: 'completed',
  input: { body: { n: i }, vars: {} },
});

describe('the studio history thread', () => {
  it('starts at the first large batch, and a flush returns once the thread has the rows in the file', () => {
    const { dir, db } = studioDb();
    const history = new RunHistory(db);
    const store = new RunStore();
    store.keepWith(history);
    store.record('shop', run(0));
    history.flush();
    // A small batch is written on the studio's own connection: no thread for a few runs.
    expect(historyThreadOf(db)).toBeUndefined();
    for (let i = 1; i <= HISTORY_THREAD_AFTER_ITEMS; i++) store.record('shop', run(i));
    history.flush();
    expect(historyThreadOf(db)).toBeDefined();
    expect(countIn(dir, 'runs')).toBe(HISTORY_THREAD_AFTER_ITEMS + 1);
    // Steps of a run whose detail left memory are read back from what the thread wrote.
    expect(JSON.parse(new RunHistory(db).detailTextOf(8) ?? '{}').input).toEqual({ body: { n: 7 }, vars: {} });
  });

  it('applies retention and a clear in order with the rows, and keeps what was written before it started', () => {
    const { dir, db } = studioDb();
    const history = new RunHistory(db);
    const store = new RunStore({ maxRuns: 100 });
    store.keepWith(history);
    for (let i = 0; i < 50; i++) store.record('shop', run(i));
    history.flush();
    startHistoryThread(db);
    for (let i = 50; i < 1_000; i++) store.record('shop', run(i));
    history.flush();
    const kept = countIn(dir, 'runs');
    expect(kept).toBe(store.size);
    expect(kept).toBeLessThanOrEqual(110);
    const reopened = new RunStore({ maxRuns: 100 });
    reopened.restore(new RunHistory(db).load(100));
    expect(reopened.query({ offset: 0, limit: 1 }).rows[0].runId).toBe('r999');
    store.clear();
    history.flush();
    expect(countIn(dir, 'runs')).toBe(0);
  });

  it('reports a failed write to its writer and goes on, never throwing at the caller', async () => {
    const { dir, db } = studioDb();
    startHistoryThread(db);
    const errors: unknown[] = [];
    const broken = new HistoryWriter<number>(db, { table: 'no_such_table', key: 'seq', upsert: 'INSERT INTO no_such_table (seq) VALUES (?)', row: (n) => [n] }, (err) => errors.push(err));
    broken.put(1, 1);
    expect(() => broken.flush()).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(String(errors[0])).toMatch(/no_such_table/);
    const logs = new HistoryWriter<number>(db, { table: 'logs', key: 'seq', upsert: "INSERT INTO logs (seq, at, level, msg, fields, bytes) VALUES (?, 0, 'info', 'm', '{}', 1)", row: (n) => [n] });
    for (let i = 1; i <= 10; i++) logs.put(i, i);
    logs.forget(4);
    logs.flush();
    expect(countIn(dir, 'logs')).toBe(6);
  });

  it('does not keep the process alive: a process that never closes it ends when its work is done', async () => {
    const { dir } = studioDb();
    const script = join(dir, 'leaves-thread-open.mts');
    const here = (name: string): string => JSON.stringify(new URL(name, import.meta.url).pathname);
    writeFileSync(
      script,
      `import { openStudioDb } from ${here('./studio-db.ts')};
import { startHistoryThread } from ${here('./history-thread.ts')};
import { RunHistory } from ${here('../traces/run-history.ts')};
import { RunStore } from ${here('../traces/run-store.ts')};
const db = openStudioDb(${JSON.stringify(join(dir, 'child'))});
startHistoryThread(db);
const history = new RunHistory(db);
const store = new RunStore();
store.keepWith(history);
for (let i = 0; i < 300; i++) store.record('shop', { kind: 'run', flow: 'orders', correlationId: 'c' + i, runId: 'r' + i, startedAt: 1, durationMs: 1, outcome: 'completed' });
history.flush();
console.log('written');
`,
    );
    const child = spawn(process.execPath, [fileURLToPath(new URL('../../../bin/run-ts.js', import.meta.url)), script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // Ends by itself at once; the bound is only how long a loaded machine may take to start tsx.
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 60_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out).toContain('written');
    expect(code).toBe(0);
  }, 90_000);

  it('hands writing back to the studio connection once closed', () => {
    const { dir, db } = studioDb();
    startHistoryThread(db);
    closeHistoryThread(db);
    expect(historyThreadOf(db, 10_000)).toBeUndefined();
    const history = new RunHistory(db);
    const store = new RunStore();
    store.keepWith(history);
    for (let i = 0; i < 300; i++) store.record('shop', run(i));
    history.flush();
    expect(countIn(dir, 'runs')).toBe(300);
  });
});

describe('a history writer', () => {
  it('does not write an item retention dropped before its write, even in a backlog of several batches', () => {
    const { dir, db } = studioDb();
    const writer = new HistoryWriter<number>(db, { table: 'logs', key: 'seq', upsert: "INSERT INTO logs (seq, at, level, msg, fields, bytes) VALUES (?, 0, 'info', 'm', '{}', 1)", row: (n) => [n] });
    for (let i = 1; i <= 5_000; i++) writer.put(i, i);
    writer.forget(4_500);
    expect(writer.pending(4_500)).toBeUndefined();
    expect(writer.pending(4_501)).toBe(4_501);
    expect([...writer.pendingItems()]).toHaveLength(500);
    writer.flush();
    expect(countIn(dir, 'logs')).toBe(500);
  });
});
