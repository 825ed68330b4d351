import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../runtime/index.ts';
import { CaptureHistory } from '../requests/capture-history.ts';
import { RunHistory } from '../traces/run-history.ts';
import { RunStore } from '../traces/run-store.ts';
import { HISTORY_BATCHES_MIGRATION, newestLines } from './history-batches.ts';
import { HistoryWriter } from './history-writer.ts';
import {
  migrate,
  openStudioDb,
  STUDIO_DB_FILE,
  STUDIO_MIGRATIONS,
  type StudioDb,
} from './studio-db.ts';

const dirs: string[] = [];
const open: StudioDb[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'studio-history-batches-'));
  dirs.push(d);
  return d;
}

function runsOn(
  dir: string,
  maxRuns = 100_000,
): { store: RunStore; history: RunHistory; db: StudioDb } {
  const db = openStudioDb(dir);
  open.push(db);
  const history = new RunHistory(db);
  const store = new RunStore({ maxRuns });
  store.restore(history.load(maxRuns));
  store.keepWith(history);
  return { store, history, db };
}

function closeLast(): void {
  open.pop()!.close();
}

const run = (runId: string, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  kind: 'run',
  flow: 'orders',
  correlationId: `c-${runId}`,
  runId,
  startedAt: 1_000,
  durationMs: 1,
  outcome: 'completed',
  input: { body: { runId }, vars: {} },
  ...extra,
});

const ids = (store: RunStore): string[] =>
  store.query({ offset: 0, limit: 1_000 }).rows.map((r) => r.runId);

describe('runs and captures in batches', () => {
  it('reads back a run as it was last changed, with the steps written before the change', () => {
    const dir = dataDir();
    const first = runsOn(dir, 10);
    first.store.record('shop', run('r1'));
    first.history.flush();
    // Enough runs that r1's steps leave memory, then a change to r1 written in a later batch.
    for (let i = 2; i <= 5; i++) first.store.record('shop', run(`r${i}`));
    first.history.flush();
    first.store.markRun('r1', { test: 'prices an order' });
    first.history.flush();
    closeLast();

    const second = runsOn(dir, 10);
    expect(ids(second.store)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
    expect(second.store.summary('r1')?.test).toBe('prices an order');
    expect(second.store.detail('r1')?.detail?.input).toEqual({
      body: { runId: 'r1' },
      vars: {},
    });
    expect(
      second.store
        .query({ offset: 0, limit: 10, origin: 'test' })
        .rows.map((r) => r.runId),
    ).toEqual(['r1']);
  });

  it('does not bring back runs retention dropped from a batch that still holds newer ones', () => {
    const dir = dataDir();
    const first = runsOn(dir, 100);
    for (let i = 1; i <= 100; i++) first.store.record('shop', run(`r${i}`));
    first.history.flush();
    // The oldest of that written batch go; the batch stays for the newer ones it holds.
    for (let i = 101; i <= 111; i++) first.store.record('shop', run(`r${i}`));
    first.history.flush();
    const kept = ids(first.store);
    expect(kept).toHaveLength(100);
    expect(kept.at(-1)).toBe('r12');
    closeLast();
    expect(ids(runsOn(dir, 1_000).store)).toEqual(kept);
  });

  it('hides forgotten keys only in the batches written before they were forgotten', () => {
    const dir = dataDir();
    const db = openStudioDb(dir);
    open.push(db);
    const log = { kind: 'test', line: (n: number) => ({ meta: JSON.stringify(n) }) };
    const first = new HistoryWriter<number>(db, log);
    for (let i = 1; i <= 10; i++) first.put(i, i);
    first.flush();
    first.forget(10);
    first.flush();
    expect(newestLines(db, 'test', 100)).toEqual([]);
    // Another start numbers from 1 again: what it writes is not hidden by the earlier note.
    const second = new HistoryWriter<number>(db, log);
    for (let i = 1; i <= 3; i++) second.put(i, i * 100);
    second.flush();
    expect(newestLines(db, 'test', 100)).toEqual([1, 2, 3].map((key) => ({ key, meta: String(key * 100) })));
  });

  it('lists the runs of a new start after a clear, though their numbers begin again', () => {
    const dir = dataDir();
    const first = runsOn(dir, 100);
    for (let i = 1; i <= 300; i++) first.store.record('shop', run(`old${i}`));
    first.history.flush();
    first.store.clear();
    first.history.flush();
    closeLast();
    const second = runsOn(dir, 100);
    expect(second.store.size).toBe(0);
    second.store.record('shop', run('new1'));
    second.history.flush();
    closeLast();
    expect(ids(runsOn(dir, 100).store)).toEqual(['new1']);
  });

  it('moves the runs and captures of a studio.db from before batches into them, skipping a damaged row', () => {
    const dir = dataDir();
    const file = join(dir, STUDIO_DB_FILE);
    const old = new Database(file);
    migrate(
      old,
      STUDIO_MIGRATIONS.filter((m) => m.id !== HISTORY_BATCHES_MIGRATION.id),
    );
    const summary = (runId: string) =>
      JSON.stringify({
        runId,
        integration: 'shop',
        flow: 'orders',
        correlationId: `c-${runId}`,
        outcome: 'completed',
        startedAt: 1_000,
        durationMs: 1,
        steps: 0,
      });
    const insertRun = old.prepare(
      'INSERT INTO runs (seq, run_id, integration, started_at, summary, search_text, step_text, detail, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    old.transaction(() => {
      for (let i = 1; i <= 600; i++)
        insertRun.run(
          i,
          `r${i}`,
          'shop',
          1_000,
          summary(`r${i}`),
          `lamp-${i}-lit`,
          null,
          JSON.stringify({
            steps: [],
            calls: [],
            input: { n: i },
            snapshots: true,
          }),
          400,
        );
      insertRun.run(
        601,
        'r601',
        'shop',
        1_000,
        '{not json',
        '',
        null,
        null,
        400,
      );
    })();
    const record = {
      connector: 'web',
      flow: 'orders',
      method: 'GET',
      target: '/orders/1',
      requestHeaders: [],
      correlationId: 'c-r1',
      status: 200,
      responseHeaders: [],
      responseBody: Buffer.from('{"ok":true}').toString('base64'),
      responseBytes: 11,
      startedAt: 999,
      durationMs: 2,
      ended: 'finished',
    };
    old
      .prepare(
        'INSERT INTO captures (id, integration, started_at, record, bytes) VALUES (?, ?, ?, ?, ?)',
      )
      .run(7, 'shop', 999, JSON.stringify({ record }), 100);
    old.close();

    const { store, db } = runsOn(dir, 1_000);
    expect(store.size).toBe(600);
    expect(ids(store).slice(0, 2)).toEqual(['r600', 'r599']);
    expect(
      store
        .query({ offset: 0, limit: 10, text: 'lamp-42-lit' })
        .rows.map((r) => r.runId),
    ).toEqual(['r42']);
    expect(store.detail('r42')?.detail?.input).toEqual({ n: 42 });
    const captures = new CaptureHistory(db).load(100);
    expect(
      captures.map((c) => [
        c.id,
        c.integration,
        c.record.target,
        Buffer.from(c.record.responseBody).toString(),
      ]),
    ).toEqual([[7, 'shop', '/orders/1', '{"ok":true}']]);
    const tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all() as Array<{ name: string }>
    ).map((t) => t.name);
    expect(tables).not.toContain('runs');
    expect(tables).not.toContain('captures');
  });
});
