import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Electron binary if it was downloaded; found without requiring 'electron' (that downloads). */
function electronBinary(): string | undefined {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(exe) ? exe : undefined;
}

const binary = electronBinary();
const reason =
  'the Electron binary is not in node_modules/electron/dist (Electron fetches it from GitHub on first use: `npx install-electron`); the Electron launch test runs where it is';

test.describe('the Electron app', () => {
  test.skip(!binary, reason);
  if (!binary) console.log(`skipping the Electron launch test: ${reason}`);

  test('opens its window on the studio, with window.studio as the only bridge', async () => {
    const app = await electron.launch({ executablePath: binary, args: [root], env: { ...process.env, FLOW_STUDIO_WORKSPACE: join(root, '.tmp', 'electron-e2e-workspace') } });
    const window = await app.firstWindow();
    await expect(window.getByRole('tablist', { name: 'Panels' })).toBeVisible();
    const keys = await window.evaluate(() => Object.keys((window as unknown as { studio: object }).studio).sort());
    expect(keys).toContain('startIntegration');
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    await app.close();
  });
});
