import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { buildElectron } from './build-electron.ts';
import type { HistoryThreadRequest } from '../studio/state/history-thread.ts';

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

  it('File → Open Workspace… remembers the folder chosen and starts the app again on it, which later starts reopen', async () => {
    await buildElectron(repo, join(app, 'dist-electron'));
    mkdirSync(join(app, 'dist-renderer'), { recursive: true });
    writeFileSync(join(app, 'dist-renderer', 'index.html'), '<!doctype html><title>Flow Studio</title>');
    const home = join(app, 'home');
    const userData = join(app, 'user-data-open');
    const chosen = join(app, 'my-integrations');
    mkdirSync(chosen, { recursive: true });
    // The samples a new ~/FlowStudio is filled with.
    mkdirSync(join(app, 'examples', 'hello'), { recursive: true });
    writeFileSync(join(app, 'examples', 'hello', 'hello.yaml'), 'flows: {}\n');
    const start = (args: string[], env: Record<string, string>): { record: Record<string, unknown>; output: string; status: number | null } => {
      const base: NodeJS.ProcessEnv = { ...process.env, HOME: home, FAKE_ELECTRON_APP_ROOT: app, FAKE_ELECTRON_USER_DATA: userData, ...env };
      delete base.FLOW_STUDIO_WORKSPACE;
      const run = spawnSync(process.execPath, ['--import', join(repo, 'src-main/electron/testing/fake-electron-loader.mjs'), join(app, 'dist-electron', 'main.js'), ...args], { env: base, encoding: 'utf8', timeout: 20_000 });
      const final = /FINAL (.*)/.exec(run.stdout)?.[1];
      expect(final, run.stdout + run.stderr).toBeDefined();
      return { record: JSON.parse(final!) as Record<string, unknown>, output: run.stdout + run.stderr, status: run.status };
    };

    // Started on a folder named on the command line, the person opens another one.
    const first = join(app, 'from-argument');
    const opened = start(['--workspace', first, '--lang=en'], { FAKE_ELECTRON_CLICK: 'File/Open Workspace…', FAKE_ELECTRON_CHOOSE: chosen });
    expect(opened.status, opened.output).toBe(0);
    expect(opened.record.fileMenu).toEqual(['Open Workspace…', 'Show Workspace Folder', 'separator', 'quit']);
    expect(opened.record.openDialog).toEqual({ title: 'Open Workspace', properties: ['openDirectory', 'createDirectory'], defaultPath: first });
    // Started again without the argument, so the folder remembered is the one it opens.
    expect(opened.record.relaunch).toEqual({ args: [join(app, 'dist-electron', 'main.js'), '--lang=en'] });
    expect(opened.record.errorBox).toBeUndefined();
    // A folder a person names is theirs: no samples copied into it.
    expect(readdirSync(first)).toEqual([]);

    const again = start([], { FAKE_ELECTRON_CLICK: 'File/Show Workspace Folder' });
    expect(again.record.openedPath).toBe(chosen);
    expect(readdirSync(chosen)).toEqual([]);

    // A new install (nothing remembered) opens ~/FlowStudio.
    const fresh = start([], { FAKE_ELECTRON_CLICK: 'File/Show Workspace Folder', FAKE_ELECTRON_USER_DATA: join(app, 'user-data-fresh') });
    expect(fresh.record.openedPath).toBe(join(home, 'FlowStudio'));
    expect(readdirSync(join(home, 'FlowStudio'))).toEqual(['hello']);
  }, 60_000);

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
      const write: HistoryThreadRequest = { op: 'write', writer: 'logs', before: [], upsert: 'INSERT INTO logs (seq, msg) VALUES (?, ?)', rows: [[1, 'one']] };
      worker.postMessage(write);
      worker.postMessage({ op: 'sync', seq: 1 });
      expect(Atomics.wait(new Int32Array(reached), 0, 0, 10_000)).not.toBe('timed-out');
      expect(db.prepare('SELECT msg FROM logs').all()).toEqual([{ msg: 'one' }]);
    } finally {
      await worker.terminate();
      db.close();
    }
  }, 30_000);
});
