import type { Page } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from './studio-fixture.ts';

export interface RunStateLike {
  integration: string;
  status: string;
  generation: number;
  routes: Array<{ url: string; path: string; flow: string }>;
}

export async function openStudio(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('tablist', { name: 'Panels' })).toBeVisible();
}

/** Calls the StudioApi as the page does (same session cookie). */
export async function call<T>(page: Page, origin: string, method: string, ...args: unknown[]): Promise<T> {
  const res = await page.request.post(`${origin}/api/call/${method}`, { data: { args } });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: string };
  if (!body.ok) throw new Error(`${method}: ${body.error}`);
  return body.value as T;
}

export async function startIntegration(page: Page, origin: string, id: string): Promise<RunStateLike> {
  const state = await call<RunStateLike>(page, origin, 'startIntegration', id);
  if (state.status !== 'running') throw new Error(`${id} did not start: ${JSON.stringify(state)}`);
  return state;
}

/** Waits until the integration runs a newer generation than `after` (a hot reload happened). */
export async function reloadedAfter(page: Page, origin: string, id: string, after: number): Promise<RunStateLike> {
  let found: RunStateLike | undefined;
  await expect
    .poll(
      async () => {
        const states = await call<RunStateLike[]>(page, origin, 'runStates');
        found = states.find((s) => s.integration === id && s.status === 'running' && s.generation > after);
        return found !== undefined;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

/** Writes an integration folder straight to disk, as an outside editor would. */
export function writeIntegration(workspaceDir: string, id: string, files: Record<string, string>): void {
  mkdirSync(join(workspaceDir, id), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(workspaceDir, id, file), text);
}

export function editFile(workspaceDir: string, id: string, file: string, edit: (text: string) => string): void {
  const path = join(workspaceDir, id, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
}

/**
 * Replaces the composer's body as a person types it: in the JSON editor (Monaco) when the body
 * is JSON, else in the raw-text field.
 */
export async function setBody(page: Page, text: string): Promise<void> {
  const editor = page.getByTestId('body-editor');
  const textarea = page.locator('textarea.body-text');
  await expect(editor.or(textarea)).toBeVisible({ timeout: 20_000 });
  if (await textarea.isVisible()) {
    await textarea.fill(text);
    return;
  }
  await expect(editor.locator('.view-lines')).toBeVisible({ timeout: 20_000 });
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  // The cursor ends at the end of the text, so its last characters are on screen.
  await expect.poll(async () => (await editor.locator('.view-lines').textContent())?.replace(/\u00a0/g, ' ')).toContain(text.slice(-20));
}
