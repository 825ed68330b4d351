import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../server.ts';
import { TELEMETRY_FILE } from './telemetry-database.ts';
import { openDatabase } from './sqlite-database.ts';
import { startWalCheckpointer, WORKER_AFTER_WAL_BYTES } from './wal-checkpointer.ts';

let server: PlatformServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = undefined;
});

describe('WAL checkpoints off the request path', () => {
  it('moves committed pages into the database file from the worker, long before the connection would checkpoint itself', async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-wal-'));
    server = await startPlatformServer({ dataDir: dir });
    const file = join(dir, TELEMETRY_FILE);
    const before = statSync(file).size;
    // 12 MB of trace batches: a fifth of what the connection's own (fallback) checkpoint waits for.
    const record = JSON.stringify({ kind: 'step', flow: 'f', note: 'x'.repeat(1000) });
    const batch = `[${Array.from({ length: 500 }, () => record).join(',')}]`;
    for (let i = 0; i < 24; i++) await server.ingestTelemetry('traces', 500, batch);
    const wal = statSync(`${file}-wal`).size;
    expect(wal).toBeGreaterThan(0);
    // Only a checkpoint grows the database file; the worker runs one every 250 ms.
    await expect.poll(() => statSync(file).size - before, { timeout: 15_000 }).toBeGreaterThan(10_000_000);
    expect(server.traces.kept.records).toBe(12_000);
  });
});

describe('the checkpoint worker, started on demand', () => {
  it('is not started while the WALs stay small (an idle platform), and starts once one passes the threshold', async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-wal-'));
    const db = openDatabase(dir);
    const checkpointer = startWalCheckpointer([db.name], 20);
    try {
      db.exec('CREATE TABLE t (v TEXT)');
      db.prepare('INSERT INTO t VALUES (?)').run('small');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(statSync(`${db.name}-wal`).size).toBeLessThan(WORKER_AFTER_WAL_BYTES);
      expect(checkpointer.started).toBe(false);
      const insert = db.prepare('INSERT INTO t VALUES (?)');
      for (let i = 0; i < 400; i++) insert.run('x'.repeat(4000));
      await expect.poll(() => checkpointer.started, { timeout: 5000 }).toBe(true);
      // The worker's checkpoints move the pages into the database file.
      await expect.poll(() => statSync(db.name).size, { timeout: 5000 }).toBeGreaterThan(1_500_000);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});
