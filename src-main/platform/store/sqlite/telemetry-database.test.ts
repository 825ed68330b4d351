import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, storeSettings, type PlatformServer } from '../../server.ts';
import { DATABASE_FILE, openDatabase } from './sqlite-database.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { resolveFeatures } from '../../features.ts';
import { SecretCipher } from '../secret-cipher.ts';
import { TELEMETRY_FILE } from './telemetry-database.ts';

let server: PlatformServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

const tablesOf = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
};

async function putKv(s: PlatformServer, key: string, value: string): Promise<number> {
  const res = await fetch(`${s.url}/v1/kv/user/entry?key=${key}`, { method: 'PUT', headers: { authorization: `Bearer ${s.token}` }, body: value });
  return res.status;
}

async function getKv(s: PlatformServer, key: string): Promise<string> {
  const res = await fetch(`${s.url}/v1/kv/user/entry?key=${key}`, { headers: { authorization: `Bearer ${s.token}` } });
  return res.text();
}

describe('traces and logs in a database file of their own', () => {
  it('stores them in telemetry.db, apart from the platform state in platform.db', async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-telemetry-db-'));
    server = await startPlatformServer({ dataDir: dir });
    await server.ingestTelemetry('traces', 2, JSON.stringify([{ kind: 'run', n: 1 }, { kind: 'run', n: 2 }]));
    await server.ingestTelemetry('logs', 1, JSON.stringify([{ msg: 'hello' }]));
    expect(await putKv(server, 'k', 'v')).toBe(201);
    await server.close();
    server = undefined;
    expect(tablesOf(join(dir, TELEMETRY_FILE))).toEqual(['log_batches', 'trace_batches']);
    expect(tablesOf(join(dir, DATABASE_FILE))).not.toContain('trace_batches');
    server = await startPlatformServer({ dataDir: dir });
    expect((await server.traces.list()).map((r) => r.record)).toEqual([{ kind: 'run', n: 2 }, { kind: 'run', n: 1 }]);
    expect((await server.logs.list()).map((r) => r.record)).toEqual([{ msg: 'hello' }]);
  });

  it('moves the traces and logs a platform.db of the earlier layout kept, once, with their ids', async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-telemetry-db-'));
    // The earlier layout: telemetry tables in platform.db (its migrations still create them).
    const old = openDatabase(dir);
    old.prepare('INSERT INTO trace_batches (id, received_at, first_id, count, bytes, body) VALUES (7, ?, 40, 2, 20, ?)').run(Date.now(), '[{"n":40},{"n":41}]');
    old.prepare('INSERT INTO log_batches (id, received_at, first_id, count, bytes, body) VALUES (3, ?, 9, 1, 12, ?)').run(Date.now(), '[{"msg":"old"}]');
    old.close();

    server = await startPlatformServer({ dataDir: dir });
    expect((await server.traces.list()).map((r) => [r.id, r.record])).toEqual([
      [41, { n: 41 }],
      [40, { n: 40 }],
    ]);
    expect((await server.logs.list()).map((r) => r.record)).toEqual([{ msg: 'old' }]);
    // New records continue the ids.
    await server.ingestTelemetry('traces', 1, '[{"n":"new"}]');
    expect((await server.traces.list({ limit: 1 }))[0].id).toBe(42);
    await server.close();
    server = undefined;
    expect(tablesOf(join(dir, DATABASE_FILE))).not.toContain('trace_batches');
    expect(tablesOf(join(dir, DATABASE_FILE))).not.toContain('log_batches');
    // A second start moves nothing twice.
    server = await startPlatformServer({ dataDir: dir });
    expect(server.traces.kept.records).toBe(3);
  });

  it('puts a damaged telemetry file aside with a warning naming it, and keeps the platform state', async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-telemetry-db-'));
    server = await startPlatformServer({ dataDir: dir });
    expect(await putKv(server, 'kept', 'still here')).toBe(201);
    await server.ingestTelemetry('traces', 1, '[{"n":1}]');
    await server.close();
    server = undefined;
    // What an OS crash with synchronous=OFF can leave: a file SQLite does not recognise.
    writeFileSync(join(dir, TELEMETRY_FILE), Buffer.alloc(8192, 0x5a));

    const warnings: string[] = [];
    const store = openSqliteStore(dir, storeSettings(resolveFeatures()), SecretCipher.openOrCreate(dir), undefined, (m) => warnings.push(m));
    expect(store.traces.kept.records).toBe(0);
    await store.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(join(dir, TELEMETRY_FILE));
    expect(warnings[0]).toMatch(/moved to .*telemetry\.db\.damaged-/);
    expect(readdirSync(dir).filter((f) => f.startsWith(`${TELEMETRY_FILE}.damaged-`))).toHaveLength(1);

    server = await startPlatformServer({ dataDir: dir });
    expect(await getKv(server, 'kept')).toBe('still here');
    await server.ingestTelemetry('traces', 1, '[{"n":2}]');
    expect((await server.traces.list()).map((r) => r.record)).toEqual([{ n: 2 }]);
  });
});
