import type { Locator, Page } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from './studio-fixture.ts';

/** Opens the studio and its Resources panel on one integration. */
export async function openResources(page: Page, url: string, integration: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('tab', { name: 'Resources' }).click();
  const picker = page.getByRole('combobox', { name: 'Integration' });
  await expect(picker.locator(`option[value="${integration}"]`)).toHaveCount(1);
  await picker.selectOption(integration);
}

/** Calls the StudioApi as the page does (same session cookie). */
export async function call<T>(page: Page, origin: string, method: string, ...args: unknown[]): Promise<T> {
  const res = await page.request.post(`${origin}/api/call/${method}`, { data: { args } });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: string };
  if (!body.ok) throw new Error(`${method}: ${body.error}`);
  return body.value as T;
}

/** Writes an integration folder straight to disk, as an outside editor would. */
export function writeIntegration(workspaceDir: string, id: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspaceDir, id, file)), { recursive: true });
    writeFileSync(join(workspaceDir, id, file), text);
  }
}

/** Replaces the whole text of the Monaco editor of a resource, typing it as a person would. */
export async function typeInEditor(page: Page, path: string, text: string): Promise<void> {
  const editor = page.getByTestId('resource-editor');
  // Monaco loads on first use; on a loaded machine that can take a while.
  await expect(editor.locator('.view-lines')).toBeVisible({ timeout: 20_000 });
  await editor.locator('.view-lines').click();
  await expect(page.getByRole('textbox', { name: `Editor of ${path}` })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

/** The row of a declared variable in an environment table. */
export function variableRow(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('table', { name: 'Environment' }).getByRole('row', { name, exact: true });
}

/** Every file under a folder that holds `needle` (bytes, so SQLite pages and WAL count too). */
export function filesHolding(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const rel of readdirSync(dir, { recursive: true }).map(String)) {
    const path = join(dir, rel);
    if (statSync(path).isFile() && readFileSync(path).includes(needle)) hits.push(rel);
  }
  return hits;
}
