import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenshotsAtBothSizes } from './page-health.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `flow-studio serve` on a fixed port, so a restart answers at the address the tab knows. */
async function serve(port: number, workspace: string, dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'bin', 'flow-studio.js'), 'serve', '--port', String(port), '--workspace', workspace, '--data-dir', dataDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL within 90 s:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      const m = /Flow Studio is running at (\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Counts the studio calls a page makes from now on. */
function countCalls(page: Page): { count(): number } {
  let n = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/call/')) n++;
  });
  return { count: () => n };
}

base.describe('a tab left open while the studio restarts', () => {
  base('says the studio restarted, stops asking, and reloads into the new start with the integration running again', async ({ page }) => {
    base.setTimeout(180_000);
    const temp = mkdtempSync(join(tmpdir(), 'studio-restart-e2e-'));
    const [workspace, dataDir] = [join(temp, 'ws'), join(temp, 'data')];
    const port = await freePort();
    let studio = await serve(port, workspace, dataDir);
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(studio.url);
      const card = page.getByRole('listitem', { name: 'orders-api' });
      await card.getByRole('button', { name: 'Run orders-api' }).click();
      await expect(card.getByRole('status', { name: 'orders-api is running' })).toBeVisible({ timeout: 15_000 });
      const url = await card.getByRole('list', { name: 'Routes' }).textContent();

      await studio.stop();
      studio = await serve(port, workspace, dataDir);
      const banner = page.getByRole('alert', { name: 'Studio restarted' });
      await expect(banner).toBeVisible({ timeout: 30_000 });
      await expect(banner).toContainText('Flow Studio restarted.');
      await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('disconnected: the studio restarted');
      await screenshotsAtBothSizes(page, 'restart-banner');

      // The tab has stopped asking: no calls while it shows the banner (the run list polls otherwise).
      const calls = countCalls(page);
      await page.getByRole('tab', { name: 'Traces' }).click();
      await page.waitForTimeout(2_000);
      expect(calls.count()).toBe(0);

      // Reload gets in with the kept session, and the integration runs again at the same URL.
      await page.setViewportSize({ width: 1440, height: 900 });
      await banner.getByRole('button', { name: 'Reload' }).click();
      await expect(page.getByRole('tablist', { name: 'Panels' })).toBeVisible();
      await expect(page.getByRole('alert', { name: 'Studio restarted' })).toHaveCount(0);
      await page.getByRole('tab', { name: 'Flows' }).click();
      await expect(card.getByRole('status', { name: 'orders-api is running' })).toBeVisible({ timeout: 15_000 });
      await expect(card.getByRole('list', { name: 'Routes' })).toHaveText(url!);
    } finally {
      await studio.stop();
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
