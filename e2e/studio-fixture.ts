import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface StudioServer {
  /** The printed URL, with the session token. */
  url: string;
  origin: string;
  workspaceDir: string;
  /** Everything the server printed so far. */
  output(): string;
}

/**
 * `flow-studio serve` exactly as a person starts it, on a free port with a temporary workspace and
 * data directory, and the synthetic-load hook enabled.
 */
export async function startServer(options: { seedWorkspace?: (workspaceDir: string) => void } = {}): Promise<{ server: StudioServer; stop: () => Promise<void> }> {
  const temp = mkdtempSync(join(tmpdir(), 'studio-e2e-'));
  const workspaceDir = join(temp, 'FlowStudio');
  options.seedWorkspace?.(workspaceDir);
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'bin', 'flow-studio.js'), 'serve', '--port', '0', '--workspace', workspaceDir, '--data-dir', join(temp, 'data')],
    { cwd: root, env: { ...process.env, FLOW_STUDIO_TEST_HOOKS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // A cold start of the CLI (TypeScript loader, the embedded platform) is slow on a loaded machine.
    const timer = setTimeout(() => reject(new Error(`flow-studio serve printed no URL within 90 s:\n${output}`)), 90_000);
    const check = (): void => {
      const m = /Flow Studio is running at (\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`flow-studio serve exited with ${code}:\n${output}`));
    });
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(temp, { recursive: true, force: true });
  };
  return { server: { url, origin: new URL(url).origin, workspaceDir, output: () => output }, stop };
}

/**
 * `studio` is shared by the tests of one worker (across test files: integrations they write stay);
 * `freshStudio` is a server of the test's own, for what only a studio nobody used yet shows.
 */
export const test = base.extend<{ freshStudio: StudioServer }, { studio: StudioServer }>({
  freshStudio: [
    async ({}, use) => {
      const { server, stop } = await startServer();
      await use(server);
      await stop();
    },
    { timeout: 120_000 },
  ],
  studio: [
    async ({}, use) => {
      const { server, stop } = await startServer();
      await use(server);
      await stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

export { expect } from '@playwright/test';
