import type { Page } from '@playwright/test';
import { expect } from './studio-fixture.ts';

/** Calls a StudioApi method the way the web transport does; throws the backend's message on failure. */
export async function call<T>(page: Page, origin: string, method: string, ...args: unknown[]): Promise<T> {
  const res = await page.request.post(`${origin}/api/call/${method}`, { data: { args } });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: string };
  if (!body.ok) throw new Error(`${method}: ${body.error}`);
  return body.value as T;
}

/**
 * Opens the studio (the session cookie comes with it). One reload is allowed: the built renderer
 * is shared by every test run in the tree, and a rebuild may replace it while a page loads.
 */
export async function openStudio(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const rail = page.getByRole('tablist', { name: 'Panels' });
  try {
    await expect(rail).toBeVisible({ timeout: 5_000 });
  } catch {
    await page.goto(url);
    await expect(rail).toBeVisible({ timeout: 15_000 });
  }
}

interface RunState {
  integration: string;
  status: string;
  reason?: string;
  generation: number;
  routes: Array<{ flow: string; url: string }>;
}

/**
 * Writes an integration with one definition file and runs it; an integration of that name from
 * an earlier test is stopped first and rewritten. The workspace watcher may still reload it once
 * for the write (a new port each time), so the routes are read once the run has been steady for
 * a moment. Returns the route URLs by flow.
 */
export async function runIntegration(page: Page, origin: string, id: string, yaml: string): Promise<Record<string, string>> {
  await call(page, origin, 'stopIntegration', id).catch(() => undefined);
  await call(page, origin, 'createIntegration', id).catch(() => undefined);
  await call(page, origin, 'writeFile', id, 'flows.yaml', yaml);
  let state = await call<RunState>(page, origin, 'startIntegration', id);
  const deadline = Date.now() + 10_000;
  let steadySince = Date.now();
  while (Date.now() - steadySince < 500 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const now = (await call<RunState[]>(page, origin, 'runStates')).find((s) => s.integration === id)!;
    if (now.generation !== state.generation || now.status !== state.status) {
      state = now;
      steadySince = Date.now();
    }
  }
  expect(state.status, state.reason).toBe('running');
  return Object.fromEntries(state.routes.map((r) => [r.flow, r.url]));
}

export async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
