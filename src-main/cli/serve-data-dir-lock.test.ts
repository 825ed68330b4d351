import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR_HOLDER_FILE, DATA_DIR_LOCK_FILE, lockDataDir } from '../platform/index.ts';
import { startServe, type ServeProcess } from '../studio/testing/serve-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'serve-data-dir-lock-'));
const workspace = join(temp, 'workspace');
const dataDir = join(temp, 'data');
/** Every studio a test started, stopped at the end whatever the test did. */
const started: Pick<ServeProcess, 'stop'>[] = [];

/**
 * A `flow-studio serve` expected to refuse: its exit code and everything it printed. One that
 * starts instead is stopped as soon as it says so, its code then null, so the test fails at once.
 */
function serveUntilExit(options: { workspace: string; dataDir: string }): Promise<{ code: number | null; output: string }> {
  const args = [join(root, 'bin', 'flow-studio.js'), 'serve', '--port', '0', '--workspace', options.workspace, '--data-dir', options.dataDir];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  child.stdout.on('data', () => {
    if (output.includes('Flow Studio is running')) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

async function serve(options: { workspace: string; dataDir: string }): Promise<ServeProcess> {
  const studio = await startServe(options);
  started.push(studio);
  return studio;
}

afterAll(async () => {
  await Promise.allSettled(started.map((s) => s.stop()));
  rmSync(temp, { recursive: true, force: true });
});

describe('one studio per data folder: flow-studio serve', () => {
  it('refuses a second serve on a folder in use, naming the folder and the pid and URL of the studio holding it; another folder starts; a studio killed with -9 does not block the next', async () => {
    const first = await serve({ workspace, dataDir });
    const origin = new URL(first.url).origin;

    const second = await serveUntilExit({ workspace, dataDir });
    expect(second.code).toBe(1);
    expect(second.output).toContain(`flow-studio serve: the data folder ${dataDir} is in use by Flow Studio (pid ${first.pid}, at ${origin}, flow-studio serve since `);
    expect(second.output).toContain('--data-dir <another folder>');
    expect(second.output).not.toContain('Flow Studio is running');
    // The refusal is a sentence, not a stack trace.
    expect(second.output).not.toMatch(/\n\s+at /);

    // The first studio is unharmed.
    expect((await fetch(first.url, { redirect: 'manual' })).status).toBeLessThan(400);

    const elsewhere = await serve({ workspace, dataDir: join(temp, 'data-2') });
    expect(new URL(elsewhere.url).origin).not.toBe(origin);
    await elsewhere.stop();

    await first.crash();
    // The dead studio's note is still there; the lock it held is not.
    expect(existsSync(join(dataDir, DATA_DIR_HOLDER_FILE))).toBe(true);
    const next = await serve({ workspace, dataDir });
    expect(next.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    await next.stop();
    // A clean stop takes its note away with the lock.
    expect(existsSync(join(dataDir, DATA_DIR_HOLDER_FILE))).toBe(false);
  }, 600_000);

  it('refuses before it creates the workspace or opens anything in the data folder', async () => {
    const untouched = join(temp, 'untouched');
    mkdirSync(untouched);
    const held = await lockDataDir(untouched, 'web');
    try {
      const refused = await serveUntilExit({ workspace: join(temp, 'never-created'), dataDir: untouched });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`the data folder ${untouched} is in use by Flow Studio (pid ${process.pid}, flow-studio serve since `);
      expect(readdirSync(untouched).sort()).toEqual([DATA_DIR_LOCK_FILE, DATA_DIR_HOLDER_FILE]);
      expect(existsSync(join(temp, 'never-created'))).toBe(false);
    } finally {
      held.release();
    }
  }, 120_000);
});
