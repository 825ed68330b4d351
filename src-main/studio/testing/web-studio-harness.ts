import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebStudio, type WebStudio } from '../web/web-server.ts';
import { sessionCookieName } from '../web/web-trust.ts';
import { rawRequest } from './http-request.ts';
import { startStudioHarness, type StudioHarness } from './studio-harness.ts';

/** A studio backend served as `flow-studio serve` serves it, for tests that go through its HTTP API as a page does. */
export interface WebStudioHarness {
  harness: StudioHarness;
  web: WebStudio;
  /** The headers a page of this studio sends with a call: its host, session cookie and JSON. */
  headers(): Record<string, string>;
  /** A StudioApi call as the page sends it; the answer's status and body as they came. */
  callRaw(method: string, args: unknown[]): Promise<{ status: number; body: string }>;
  /** The same, answering the call's value, or throwing its error. */
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

export async function startWebStudioHarness(integrations: Record<string, Record<string, string>> = {}): Promise<WebStudioHarness> {
  const harness = await startStudioHarness(integrations);
  // The page itself is not what these tests look at: an empty one stands in for the built UI.
  const rendererDir = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  const web = await startWebStudio({ backend: harness.backend, rendererDir, port: 0 });
  const headers = (): Record<string, string> => ({ host: `127.0.0.1:${web.port}`, cookie: `${sessionCookieName(web.port)}=${web.token}`, 'content-type': 'application/json' });
  const callRaw = async (method: string, args: unknown[]): Promise<{ status: number; body: string }> => {
    const res = await rawRequest(`${web.origin}/api/call/${method}`, { method: 'POST', headers: headers(), body: JSON.stringify({ args }) });
    return { status: res.status, body: res.body };
  };
  return {
    harness,
    web,
    headers,
    callRaw,
    async call<T>(method: string, ...args: unknown[]): Promise<T> {
      const body = JSON.parse((await callRaw(method, args)).body) as { ok: boolean; value?: T; error?: string };
      if (!body.ok) throw new Error(`${method}: ${body.error}`);
      return body.value as T;
    },
    async close() {
      await web.close();
      await harness.close();
      rmSync(rendererDir, { recursive: true, force: true });
    },
  };
}
