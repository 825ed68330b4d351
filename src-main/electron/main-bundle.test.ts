import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { buildElectron } from './build-electron.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository so the bundle's external packages resolve from its node_modules.
mkdirSync(join(repo, '.tmp'), { recursive: true });
const app = mkdtempSync(join(repo, '.tmp', 'electron-main-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('the bundled Electron main process (run under Node with a stand-in for Electron)', () => {
  it('starts the backend, opens a sandboxed window on app:// with the CSP, blocks navigation, and quits cleanly', async () => {
    await buildElectron(repo, join(app, 'dist-electron'));
    mkdirSync(join(app, 'dist-renderer'));
    writeFileSync(join(app, 'dist-renderer', 'index.html'), '<!doctype html><title>Flow Studio</title>');
    const run = spawnSync(process.execPath, ['--import', join(repo, 'src-main/electron/testing/fake-electron-loader.mjs'), join(app, 'dist-electron', 'main.js')], {
      env: { ...process.env, FAKE_ELECTRON_APP_ROOT: app, FAKE_ELECTRON_USER_DATA: join(app, 'user-data'), FLOW_STUDIO_WORKSPACE: join(app, 'workspace') },
      encoding: 'utf8',
      timeout: 20_000,
    });
    const ready = /READY (.*)/.exec(run.stdout)?.[1];
    expect(ready, run.stdout + run.stderr).toBeDefined();
    const record = JSON.parse(ready!);
    expect(record.windows).toEqual([
      { preload: join(app, 'dist-electron', 'preload.cjs'), sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true, spellcheck: false },
    ]);
    expect(record.privileged).toEqual(['app']);
    expect(record.ipcChannels).toEqual(['studio:call']);
    expect(record.permissionHandler).toBe(true);
    expect(record.page).toMatchObject({ url: 'app://studio/index.html', status: 200, csp: expect.stringContaining("script-src 'self'") });
    expect(record.navigationBlocked).toBe(true);
    expect(record.windowOpen).toEqual({ action: 'deny' });
    expect(run.stdout).toContain('EXIT 0');
    expect(run.status).toBe(0);
  }, 30_000);

  it('ships the OTLP export worker as a file of its own that starts without the TypeScript loader', async () => {
    await buildElectron(repo, join(app, 'dist-electron'));
    const config = { protocol: 'http/protobuf', batch: {} };
    const worker = new Worker(join(app, 'dist-electron', 'otel-worker.js'), { workerData: { config, integration: 'orders' } });
    try {
      const first = await new Promise<unknown>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(first).toEqual({ ready: true });
    } finally {
      await worker.terminate();
    }
  }, 30_000);

  it('ships the telemetry writer as a file of its own that starts without the TypeScript loader and stores a batch', async () => {
    await buildElectron(repo, join(app, 'dist-electron'));
    const file = join(app, 'telemetry.db');
    const retention = { records: 100, bytes: 1_000_000, seconds: 3600 };
    const worker = new Worker(join(app, 'dist-electron', 'telemetry-writer-worker.js'), { workerData: { file, retention: { traces: retention, logs: retention } } });
    const replies: unknown[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        worker.on('message', (m) => {
          replies.push(m);
          if (replies.length === 2) resolve();
        });
        worker.once('error', reject);
        worker.postMessage({ id: 1, at: 1, op: 'append', kind: 'traces', count: 1, text: '[{"kind":"run"}]' });
      });
      expect(replies).toEqual([{ ready: true }, { id: 1, kept: { records: 1, bytes: 16 } }]);
    } finally {
      await worker.terminate();
    }
  }, 30_000);

  it('ships the studio history thread as a file of its own that starts without the TypeScript loader and writes a batch', async () => {
    await buildElectron(repo, join(app, 'dist-electron'));
    const file = join(app, 'history.db');
    const db = new Database(file);
    db.exec('CREATE TABLE logs (seq INTEGER PRIMARY KEY, msg TEXT NOT NULL)');
    const reached = new SharedArrayBuffer(4);
    const worker = new Worker(join(app, 'dist-electron', 'history-thread-worker.js'), { workerData: { file, reached } });
    try {
      worker.postMessage({ op: 'write', table: 'logs', key: 'seq', upsert: 'INSERT INTO logs (seq, msg) VALUES (?, ?)', clear: false, forget: 0, rows: [[1, 'one']] });
      worker.postMessage({ op: 'sync', seq: 1 });
      expect(Atomics.wait(new Int32Array(reached), 0, 0, 10_000)).not.toBe('timed-out');
      expect(db.prepare('SELECT msg FROM logs').all()).toEqual([{ msg: 'one' }]);
    } finally {
      await worker.terminate();
      db.close();
    }
  }, 30_000);
});
