import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/request-types.ts';
import type { HttpExchangeRecord, TraceRecord } from '../../runtime/index.ts';
import { LogHistory } from '../logs/log-history.ts';
import { CaptureHistory } from '../requests/capture-history.ts';
import { CaptureStore } from '../requests/capture-store.ts';
import { RequestHistory } from '../requests/request-history.ts';
import { RunHistory } from '../traces/run-history.ts';
import { RunStore } from '../traces/run-store.ts';
import { HistorySettingsStore } from './history-settings.ts';
import { HISTORY_BATCHES_MIGRATION, newestLines } from './history-batches.ts';
import { HistoryWriter } from './history-writer.ts';
import { migrate, openStudioDb, STUDIO_DB_FILE, STUDIO_MIGRATIONS, type StudioDb } from './studio-db.ts';

const dirs: string[] = [];
const open: StudioDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'studio-history-'));
  dirs.push(d);
  return d;
}

function db(dir: string): StudioDb {
  const d = openStudioDb(dir);
  open.push(d);
  return d;
}

/** A studio's run store on studio.db, as fire-and-inspect wires it. */
function runsOn(dir: string, retention = { count: 100_000, bytes: 512 * 1024 * 1024 }) {
  const history = new RunHistory(db(dir));
  const store = new RunStore({ maxRuns: retention.count, maxBytes: retention.bytes });
  store.restore(history.load(retention.count));
  store.setRetention(retention);
  store.keepWith(history);
  return { store, history };
}

const event = (kind: 'step' | 'run', runId: string, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  kind,
  flow: 'orders',
  correlationId: `c-${runId}`,
  runId,
  startedAt: 1_000,
  durationMs: 1,
  outcome: 'completed',
  ...(kind === 'step' ? { step: 'flows.orders.steps[0]', block: 'set', name: 'price it' } : {}),
  ...extra,
});

const exchange = (n: number, body = ''): HttpExchangeRecord => ({
  connector: 'web',
  flow: 'orders',
  route: '/orders/{id}',
  method: 'PUT',
  target: `/orders/${n}`,
  requestHeaders: [['content-type', 'application/json'], ['x-api-key', 'secret-key-123']],
  requestBody: Buffer.from(body),
  correlationId: `c-r${n}`,
  status: 200,
  responseHeaders: [['content-type', 'application/json']],
  responseBody: Buffer.from('{"ok":true}'),
  responseBytes: 11,
  startedAt: 999,
  durationMs: 2,
  ended: 'finished',
});

describe('the studio history on disk', () => {
  it('lists runs again after a restart, with their steps and messages, and finds them by what was sent', () => {
    const dir = dataDir();
    const first = runsOn(dir);
    first.store.record('shop', event('step', 'r1', { input: { body: { sku: 'A-1' }, vars: {} }, output: { body: { price: 7 }, vars: {} } }), { generation: 3, digest: 'abcd1234' });
    first.store.record('shop', event('run', 'r1', { input: { body: { customer: 'ana' }, vars: { region: 'eu-west' } } }), { generation: 3, digest: 'abcd1234' });
    first.store.record('shop', event('run', 'r2', { outcome: 'failed', error: 'upstream down' }));
    first.history.flush();
    open.pop()!.close();

    const second = runsOn(dir);
    const page = second.store.query({ offset: 0, limit: 10 });
    expect(page.rows.map((r) => [r.runId, r.outcome])).toEqual([
      ['r2', 'failed'],
      ['r1', 'completed'],
    ]);
    expect(page.versions).toEqual([{ integration: 'shop', generation: 3, digest: 'abcd1234', runs: 1 }]);
    const detail = second.store.detail('r1')!.detail!;
    expect(detail.steps.map((s) => [s.name, s.output])).toEqual([['price it', { body: { price: 7 }, vars: {} }]]);
    const ids = (text: string) => second.store.query({ offset: 0, limit: 10, text }).rows.map((r) => r.runId);
    expect(ids('ana')).toEqual(['r1']);
    expect(ids('eu-west')).toEqual(['r1']);
    expect(ids('price it')).toEqual(['r1']);
    expect(ids('upstream')).toEqual(['r2']);
    expect(second.store.query({ offset: 0, limit: 10, generation: 3 }).rows.map((r) => r.runId)).toEqual(['r1']);
  });

  it("tells a request linked to a run read back from disk how the run's verification step went, as it told it before the restart", () => {
    const dir = dataDir();
    const first = runsOn(dir);
    const verify = { step: 'flows.orders.steps[0]', block: 'notes-verify-request', name: 'signed by notes' };
    first.store.record('shop', event('step', 'r1', { ...verify, outcome: 'failed', error: 'signature mismatch' }));
    first.store.record('shop', event('run', 'r1', { outcome: 'failed', error: 'signature mismatch' }));
    first.store.record('shop', event('step', 'r2', { ...verify, output: { body: {}, vars: { notesVerification: 'handshake' } } }));
    first.store.record('shop', event('run', 'r2'));
    const before = ['r1', 'r2'].map((runId, i) => {
      first.store.linkRequest(`c-${runId}`, 'orders', { captureId: i + 1, status: 200, method: 'POST', startedAt: 1_000 });
      return first.store.verifyStepForCapture(i + 1)?.step;
    });
    expect(before).toEqual([
      { block: 'notes-verify-request', outcome: 'failed', error: 'signature mismatch', handshake: false },
      { block: 'notes-verify-request', outcome: 'completed', handshake: true },
    ]);
    first.history.flush();
    open.pop()!.close();

    const second = runsOn(dir);
    expect([1, 2].map((captureId) => second.store.verifyStepForCapture(captureId)?.step)).toEqual(before);
  });

  it('keeps runs within the count and bytes set, on disk as in memory, and clears them for good', () => {
    const dir = dataDir();
    const first = runsOn(dir, { count: 100, bytes: 512 * 1024 * 1024 });
    for (let i = 0; i < 250; i++) first.store.record('shop', event('run', `r${i}`));
    first.history.flush();
    open.pop()!.close();
    const second = runsOn(dir, { count: 100, bytes: 512 * 1024 * 1024 });
    const kept = second.store.query({ offset: 0, limit: 1_000 }).rows;
    expect(kept.length).toBeLessThanOrEqual(110);
    expect(kept[0].runId).toBe('r249');
    // A byte bound well below what is stored drops the oldest until the rest fit.
    second.store.setRetention({ count: 100, bytes: 20 * 1024 });
    expect(second.store.storedBytes).toBeLessThanOrEqual(20 * 1024);
    expect(second.store.query({ offset: 0, limit: 1 }).rows[0].runId).toBe('r249');
    second.history.flush();
    second.store.clear();
    second.history.flush();
    open.pop()!.close();
    expect(runsOn(dir).store.size).toBe(0);
  });

  it('lists captures again after a restart, linked to their runs, with secret values masked on disk', () => {
    const dir = dataDir();
    const runs = runsOn(dir);
    const captures = new CaptureStore(runs.store);
    const captureHistory = new CaptureHistory(db(dir));
    captures.keepWith(captureHistory);
    runs.store.record('shop', event('run', 'r1', { correlationId: 'c-r1' }));
    const redact = (t: string): string => t.replaceAll('secret-key-123', '[redacted]');
    const c = captures.add('shop', exchange(1, '{"note":"pay with secret-key-123","item":"lamp"}'), redact);
    runs.history.flush();
    captureHistory.flush();
    for (const d of open.splice(0)) d.close();

    const again = runsOn(dir);
    const restored = new CaptureStore(again.store);
    restored.restore(new CaptureHistory(db(dir)).load(100));
    const page = restored.query({ limit: 10 });
    expect(page.rows.map((r) => [r.id, r.target, r.runId])).toEqual([[c.id, '/orders/1', 'r1']]);
    const detail = restored.detail(c.id)!;
    expect(detail.requestHeaders).toContainEqual(['x-api-key', '[redacted]']);
    expect(detail.requestBody.text).toBe('{"note":"pay with [redacted]","item":"lamp"}');
    expect(restored.query({ limit: 10, search: 'lamp' }).total).toBe(1);
    // The run that capture started is found by a value of the body that came.
    expect(again.store.query({ offset: 0, limit: 10, text: 'lamp' }).rows.map((r) => r.runId)).toEqual(['r1']);
    // New captures never take an id a stored one has.
    expect(restored.add('shop', exchange(2), (t) => t).id).toBeGreaterThan(c.id);
  });

  it('keeps log lines across a restart, finds one run\'s lines, and trims to the set number of lines', () => {
    const dir = dataDir();
    const logs = new LogHistory(db(dir), { count: 100, bytes: 32 * 1024 * 1024 });
    for (let i = 0; i < 300; i++) logs.add({ kind: 'log', at: 1_000 + i, integration: 'shop', log: { time: '', level: i % 2 ? 'info' : 'warn', msg: `line ${i}`, fields: { runId: `r${i}` } } });
    logs.flush();
    open.pop()!.close();
    const again = new LogHistory(db(dir), { count: 100, bytes: 32 * 1024 * 1024 });
    expect(again.usage.count).toBeLessThanOrEqual(110);
    const newest = again.query({ limit: 3 });
    expect(newest.map((l) => l.log.msg)).toEqual(['line 297', 'line 298', 'line 299']);
    expect(again.query({ limit: 10, runId: 'r299' }).map((l) => l.log.msg)).toEqual(['line 299']);
    expect(again.query({ limit: 2, before: newest[0].seq }).map((l) => l.log.msg)).toEqual(['line 295', 'line 296']);
    again.clear();
    expect(again.query({ limit: 10 })).toEqual([]);
  });

  it('keeps the composer\'s history, importing the file an earlier studio wrote once', () => {
    const dir = dataDir();
    const entry = (id: string): HistoryEntry => ({
      id,
      sentAt: 1,
      request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: [], body: { kind: 'none' } },
      response: { status: 200, headers: [], body: { bytes: 0, truncated: false }, timing: { startedAt: 1, headersMs: 1, totalMs: 1 } },
    });
    writeFileSync(join(dir, 'request-history.json'), JSON.stringify([entry('old-2'), entry('old-1')]));
    const retention = { count: 3, bytes: 64 * 1024 * 1024 };
    const history = new RequestHistory(db(dir), retention, dir);
    expect(history.list().map((e) => e.id)).toEqual(['old-2', 'old-1']);
    history.add(entry('new-1'));
    history.add(entry('new-2'));
    history.flush();
    open.pop()!.close();
    expect(new RequestHistory(db(dir), retention, dir).list().map((e) => e.id)).toEqual(['new-2', 'new-1', 'old-2']);
  });

  it('refuses a retention out of bounds, naming it, and keeps the settings across a restart', () => {
    const dir = dataDir();
    const settings = new HistorySettingsStore(db(dir));
    expect(() => settings.update({ retention: { runs: { count: 5 } } })).toThrow(/retention\.runs\.count must be a whole number from 100 to 1,000,000; got 5/);
    settings.update({ retention: { logs: { count: 2_000 } }, restoreRunning: false });
    open.pop()!.close();
    const again = new HistorySettingsStore(db(dir)).get();
    expect(again.retention.logs.count).toBe(2_000);
    expect(again.retention.runs.count).toBe(100_000);
    expect(again.restoreRunning).toBe(false);
  });
});

const batchRun = (runId: string, extra: Partial<TraceRecord> = {}): TraceRecord => event('run', runId, { input: { body: { runId }, vars: {} }, ...extra });

const runIds = (store: RunStore): string[] =>
  store.query({ offset: 0, limit: 1_000 }).rows.map((r) => r.runId);

describe('runs and captures in batches', () => {
  it('reads back a run as it was last changed, with the steps written before the change', () => {
    const dir = dataDir();
    const first = runsOn(dir, { count: 10, bytes: 512 * 1024 * 1024 });
    first.store.record('shop', batchRun('r1'));
    first.history.flush();
    // Enough runs that r1's steps leave memory, then a change to r1 written in a later batch.
    for (let i = 2; i <= 5; i++) first.store.record('shop', batchRun(`r${i}`));
    first.history.flush();
    first.store.markRun('r1', { test: 'prices an order' });
    first.history.flush();
    open.pop()!.close();

    const second = runsOn(dir, { count: 10, bytes: 512 * 1024 * 1024 });
    expect(runIds(second.store)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
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
    const first = runsOn(dir, { count: 100, bytes: 512 * 1024 * 1024 });
    for (let i = 1; i <= 100; i++) first.store.record('shop', batchRun(`r${i}`));
    first.history.flush();
    // The oldest of that written batch go; the batch stays for the newer ones it holds.
    for (let i = 101; i <= 111; i++) first.store.record('shop', batchRun(`r${i}`));
    first.history.flush();
    const kept = runIds(first.store);
    expect(kept).toHaveLength(100);
    expect(kept.at(-1)).toBe('r12');
    open.pop()!.close();
    expect(runIds(runsOn(dir, { count: 1_000, bytes: 512 * 1024 * 1024 }).store)).toEqual(kept);
  });

  it('hides forgotten keys only in the batches written before they were forgotten', () => {
    const dir = dataDir();
    const studio = db(dir);
    const log = { kind: 'test', line: (n: number) => ({ meta: JSON.stringify(n) }) };
    const first = new HistoryWriter<number>(studio, log);
    for (let i = 1; i <= 10; i++) first.put(i, i);
    first.flush();
    first.forget(10);
    first.flush();
    expect(newestLines(studio, 'test', 100)).toEqual([]);
    // Another start numbers from 1 again: what it writes is not hidden by the earlier note.
    const second = new HistoryWriter<number>(studio, log);
    for (let i = 1; i <= 3; i++) second.put(i, i * 100);
    second.flush();
    expect(newestLines(studio, 'test', 100)).toEqual([1, 2, 3].map((key) => ({ key, meta: String(key * 100) })));
  });

  it('lists the runs of a new start after a clear, though their numbers begin again', () => {
    const dir = dataDir();
    const first = runsOn(dir, { count: 100, bytes: 512 * 1024 * 1024 });
    for (let i = 1; i <= 300; i++) first.store.record('shop', batchRun(`old${i}`));
    first.history.flush();
    first.store.clear();
    first.history.flush();
    open.pop()!.close();
    const second = runsOn(dir, { count: 100, bytes: 512 * 1024 * 1024 });
    expect(second.store.size).toBe(0);
    second.store.record('shop', batchRun('new1'));
    second.history.flush();
    open.pop()!.close();
    expect(runIds(runsOn(dir, { count: 100, bytes: 512 * 1024 * 1024 }).store)).toEqual(['new1']);
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

    const { store } = runsOn(dir, { count: 1_000, bytes: 512 * 1024 * 1024 });
    const opened = db(dir);
    expect(store.size).toBe(600);
    expect(runIds(store).slice(0, 2)).toEqual(['r600', 'r599']);
    expect(
      store
        .query({ offset: 0, limit: 10, text: 'lamp-42-lit' })
        .rows.map((r) => r.runId),
    ).toEqual(['r42']);
    expect(store.detail('r42')?.detail?.input).toEqual({ n: 42 });
    const captures = new CaptureHistory(opened).load(100);
    expect(
      captures.map((c) => [
        c.id,
        c.integration,
        c.record.target,
        Buffer.from(c.record.responseBody).toString(),
      ]),
    ).toEqual([[7, 'shop', '/orders/1', '{"ok":true}']]);
    const tables = (
      opened
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all() as Array<{ name: string }>
    ).map((t) => t.name);
    expect(tables).not.toContain('runs');
    expect(tables).not.toContain('captures');
  });
});
