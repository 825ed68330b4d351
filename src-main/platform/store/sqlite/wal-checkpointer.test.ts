import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../server.ts';
import { TELEMETRY_FILE } from './telemetry-database.ts';

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
