import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../shared/clock.ts';
import type { Db } from './sqlite-database.ts';
import { openTelemetryDatabase } from './telemetry-database.ts';
import type { Retention } from '../telemetry-store.ts';
import { SqliteTelemetry } from './sqlite-telemetry.ts';
import { OffThreadTelemetry, OnDemandWriter, TelemetryWriter, WRITER_AFTER_APPENDS_PER_SECOND } from './telemetry-writer.ts';

let dir: string | undefined;
let db: Db | undefined;
let writer: TelemetryWriter | undefined;
afterEach(async () => {
  await writer?.close(0);
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  writer = undefined;
  db = undefined;
  dir = undefined;
});

const batch = (from: number, count: number) => ({ count, text: JSON.stringify(Array.from({ length: count }, (_, i) => ({ n: from + i }))) });
const roomy: Retention = { records: 1_000_000, bytes: 1e9, seconds: 3600 };

function open(retention: Retention = roomy) {
  dir = mkdtempSync(join(tmpdir(), 'flow-telemetry-writer-'));
  db = openTelemetryDatabase(dir, () => {});
  const clock = new ManualClock(1_700_000_000_000);
  writer = TelemetryWriter.start({ file: db.name, retention: { traces: retention, logs: roomy } });
  const local = new SqliteTelemetry(db, 'trace_batches', retention, clock);
  return { clock, local, traces: new OffThreadTelemetry('traces', local, writer, clock) };
}

describe('trace and log batches stored from the writer thread', () => {
  it('stores each batch before the append resolves, where this thread reads it, with the caller clock receipt time', async () => {
    const { clock, local, traces } = open();
    await traces.append(batch(1, 3));
    await clock.advance(5000);
    await traces.append(batch(4, 2));
    // Stored by the writer's connection: this thread's store appended nothing itself.
    expect(local.kept).toEqual({ records: 0, bytes: 0 });
    expect(traces.kept.records).toBe(5);
    const page = await traces.list();
    expect(page.map((r) => [r.id, r.record])).toEqual([[5, { n: 5 }], [4, { n: 4 }], [3, { n: 3 }], [2, { n: 2 }], [1, { n: 1 }]]);
    expect(page.map((r) => r.receivedAt)).toEqual([1_700_000_005_000, 1_700_000_005_000, 1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_000]);
  });

  it('keeps the retention bounds on the writer thread, and prunes by age on the caller clock', async () => {
    const { clock, traces } = open({ records: 100, bytes: 1e9, seconds: 60 });
    for (let i = 0; i < 30; i++) await traces.append(batch(i * 10, 10));
    expect(traces.kept.records).toBeLessThanOrEqual(100);
    expect((await traces.list({ limit: 1 }))[0].record).toEqual({ n: 299 });
    await clock.advance(61_000);
    await traces.prune();
    expect(traces.kept.records).toBe(0);
    expect(await traces.list()).toEqual([]);
  });

  it('takes the writes over on this thread once the writer is gone, continuing its record ids', async () => {
    const { local, traces } = open();
    await traces.append(batch(1, 4));
    await writer!.close(0);
    await traces.append(batch(5, 2));
    expect(local.kept.records).toBe(6);
    expect(traces.kept.records).toBe(6);
    expect((await traces.list()).map((r) => r.id)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('answers a failed write with its error, not a silent drop', async () => {
    const { traces } = open();
    await traces.append(batch(1, 1));
    db!.exec('DROP TABLE trace_batches');
    await expect(traces.append(batch(2, 1))).rejects.toThrow(/no such table: trace_batches/);
    expect(writer!.available).toBe(true);
  });

  it('keeps a process whose work is done alive until the batch it handed on is stored', () => {
    const repo = fileURLToPath(new URL('../../../../', import.meta.url));
    mkdirSync(join(repo, '.tmp'), { recursive: true });
    dir = mkdtempSync(join(repo, '.tmp', 'telemetry-writer-'));
    const script = join(dir, 'append-and-leave.ts');
    const writer = JSON.stringify(new URL('./telemetry-writer.ts', import.meta.url).href);
    const database = JSON.stringify(new URL('./telemetry-database.ts', import.meta.url).href);
    writeFileSync(
      script,
      `const { TelemetryWriter } = await import(${writer});
const { openTelemetryDatabase } = await import(${database});
const db = openTelemetryDatabase(${JSON.stringify(dir)}, () => {});
const r = { records: 100, bytes: 1e6, seconds: 60 };
const w = TelemetryWriter.start({ file: db.name, retention: { traces: r, logs: r } });
// Nothing else keeps this process alive: only the batch on its way to the writer.
void w.request({ op: 'append', kind: 'traces', count: 1, text: '[{"n":1}]', at: 1 }).then((kept) => console.log('stored', JSON.stringify(kept)));
`,
    );
    const run = spawnSync(process.execPath, [join(repo, 'bin', 'run-ts.js'), script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stdout + run.stderr).toContain('stored {"records":1,"bytes":9}');
    expect(run.status).toBe(0);
  });

  // A batch's WAL writes can wait on the disk: on one core too, the request thread must not wait with them.
  it.runIf(spawnSync('taskset', ['-c', '0', 'true']).status === 0)('stores the platform\'s traces from the writer thread in a process pinned to one core', () => {
    const repo = fileURLToPath(new URL('../../../../', import.meta.url));
    mkdirSync(join(repo, '.tmp'), { recursive: true });
    dir = mkdtempSync(join(repo, '.tmp', 'telemetry-writer-'));
    const script = join(dir, 'one-core.ts');
    const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
    writeFileSync(
      script,
      `import { availableParallelism } from 'node:os';
const { openSqliteStore } = await import(${url('./sqlite-store.ts')});
const { OffThreadTelemetry } = await import(${url('./telemetry-writer.ts')});
const { storeSettings } = await import(${url('../../server.ts')});
const { resolveFeatures } = await import(${url('../../features.ts')});
const { SecretCipher } = await import(${url('../secret-cipher.ts')});
const data = ${JSON.stringify(dir)};
const store = openSqliteStore(data, storeSettings(resolveFeatures()), SecretCipher.openOrCreate(data));
// As many batches as start the writer's thread (OnDemandWriter), and one more for it to store.
for (let i = 0; i <= ${WRITER_AFTER_APPENDS_PER_SECOND}; i++) await store.traces.append({ count: 1, text: '[{"n":1}]' });
console.log('cores', availableParallelism(), 'off-thread', store.traces instanceof OffThreadTelemetry, 'kept', store.traces.kept.records);
await store.close();
`,
    );
    const run = spawnSync('taskset', ['-c', '0', process.execPath, join(repo, 'bin', 'run-ts.js'), script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stdout + run.stderr).toContain(`cores 1 off-thread true kept ${WRITER_AFTER_APPENDS_PER_SECOND + 1}`);
    expect(run.status).toBe(0);
  });
});

describe('the writer thread, started on demand', () => {
  function openOnDemand() {
    dir = mkdtempSync(join(tmpdir(), 'flow-telemetry-writer-'));
    db = openTelemetryDatabase(dir, () => {});
    const clock = new ManualClock(1_700_000_000_000);
    const onDemand = new OnDemandWriter({ file: db.name, retention: { traces: roomy, logs: roomy } }, clock);
    const local = new SqliteTelemetry(db, 'trace_batches', roomy, clock);
    return { clock, local, onDemand, traces: new OffThreadTelemetry('traces', local, onDemand, clock) };
  }

  it('stores a few batches a second on this thread and starts no thread for them', async () => {
    const { clock, local, onDemand, traces } = openOnDemand();
    for (let i = 0; i < 3 * WRITER_AFTER_APPENDS_PER_SECOND; i++) {
      await traces.append(batch(i + 1, 1));
      await clock.advance(1000 / (WRITER_AFTER_APPENDS_PER_SECOND - 2));
    }
    await traces.prune();
    expect(onDemand.started).toBeUndefined();
    expect(local.kept.records).toBe(3 * WRITER_AFTER_APPENDS_PER_SECOND);
    expect(traces.kept.records).toBe(3 * WRITER_AFTER_APPENDS_PER_SECOND);
    await onDemand.close(0);
  });

  it('starts the thread once batches come faster, which continues the record ids; a later failure is taken over here', async () => {
    const { local, onDemand, traces } = openOnDemand();
    for (let i = 0; i < WRITER_AFTER_APPENDS_PER_SECOND - 1; i++) await traces.append(batch(i + 1, 1));
    expect(onDemand.started).toBeUndefined();
    await traces.append(batch(WRITER_AFTER_APPENDS_PER_SECOND, 2));
    writer = onDemand.started;
    expect(writer).toBeDefined();
    // Stored by the thread: this connection's counts stayed where its own appends left them.
    expect(local.kept.records).toBe(WRITER_AFTER_APPENDS_PER_SECOND - 1);
    expect(traces.kept.records).toBe(WRITER_AFTER_APPENDS_PER_SECOND + 1);
    await traces.append(batch(100, 1));
    expect((await traces.list({ limit: 4 })).map((r) => r.id)).toEqual([10, 9, 8, 7].map((n) => n + WRITER_AFTER_APPENDS_PER_SECOND - 8));
    await writer!.close(0);
    await traces.append(batch(200, 1));
    expect(traces.kept.records).toBe(WRITER_AFTER_APPENDS_PER_SECOND + 3);
    expect((await traces.list({ limit: 1 }))[0].id).toBe(WRITER_AFTER_APPENDS_PER_SECOND + 3);
  });
});
