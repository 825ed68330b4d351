import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawUpload } from '../../shared/tests/raw-upload.ts';
import { startTestPlatform, type TestPlatform } from './testing/platform-harness.ts';

/**
 * Issue 18 item 5: a client sending a 10 MB body to any route receives the status (413 where the
 * route reads a body), not EPIPE/ECONNRESET because the server closed while it was still sending.
 */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const TEN_MB = 10 * 1024 * 1024;
interface Outcome {
  status?: number;
  body?: string;
  error?: string;
}

const bearer = (): string => `authorization: Bearer ${platform.server.token}\r\n`;

/**
 * A client that sends the whole request first and reads the answer afterwards, as simple HTTP
 * clients do. Chunked when no length is declared.
 */
const send = (method: string, path: string, bytes: number, declareLength: boolean, pauseEveryMiBMs?: number): Promise<Outcome> =>
  rawUpload(platform.url + path, method, bytes, { sendBody: true, chunked: !declareLength, headers: bearer(), pauseEveryMiBMs });

const concrete = (template: string): string =>
  template.replace(/\{[^}]+\}/g, 'p') + '?key=k&name=n&kind=env&userId=u';

describe('clients see the 413 of an oversized body', () => {
  it('every route answers a 10 MB body with a status the client receives (413 where a body is read)', async () => {
    const outcomes: Record<string, Outcome> = {};
    for (const route of platform.server.routes) {
      if (route.method === 'GET') continue;
      outcomes[`${route.method} ${route.path}`] = await send(route.method, concrete(route.path), TEN_MB, true);
    }
    const failed = Object.entries(outcomes).filter(([, o]) => o.status === undefined || o.error !== undefined);
    expect(failed, JSON.stringify(failed)).toEqual([]);
    const tooLarge = Object.entries(outcomes).filter(([, o]) => o.status === 413);
    expect(tooLarge.length).toBeGreaterThan(15);
    for (const [, o] of tooLarge) expect(JSON.parse(o.body!).error.code).toMatch(/too_large/);
  }, 120_000);

  it('a chunked body (no Content-Length) that grows past the limit also gets its 413', async () => {
    for (const path of ['/v1/queues/big/publish', '/v1/kv/user/entry?key=big', '/v1/leases/acquire']) {
      const method = path.startsWith('/v1/kv') ? 'PUT' : 'POST';
      const outcome = await send(method, path, TEN_MB, false);
      expect(outcome, path).toMatchObject({ status: 413 });
      expect(outcome.error, path).toBeUndefined();
    }
  }, 60_000);
});

/** Every PUT and POST operation of the published contract (shared/platform-openapi.json), as `METHOD /path`. */
function writeOperations(): string[] {
  const doc = JSON.parse(readFileSync(new URL('../../shared/platform-openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).filter((m) => m === 'put' || m === 'post').map((m) => `${m.toUpperCase()} ${path}`));
}

/**
 * Sends only the headers of a request announcing `bytes`, and reads the answer: the status, its
 * body, and how long it took to arrive in full. No body byte is ever sent.
 */
const announce = (method: string, path: string, bytes: number): Promise<Outcome & { ms: number }> =>
  rawUpload(platform.url + path, method, bytes, { sendBody: false, headers: bearer(), timeoutMs: 5_000 });

describe('an oversized body is refused from its Content-Length alone (issue 48)', () => {
  /** The PUT and POST routes whose limit a 10 MB body passes: all but the bundle upload and telemetry batches. */
  const refusedRoutes = (): Array<{ method: string; path: string; maxBodyBytes: number }> =>
    platform.server.routes.filter((r) => (r.method === 'PUT' || r.method === 'POST') && r.maxBodyBytes < TEN_MB);

  it('the route table serves every PUT and POST operation of the OpenAPI document, each with its body limit', () => {
    const served = platform.server.routes.map((r) => `${r.method} ${r.path}`);
    expect(writeOperations().filter((op) => !served.includes(op))).toEqual([]);
    expect(refusedRoutes().length).toBeGreaterThanOrEqual(29);
    expect(platform.server.routes.filter((r) => r.maxBodyBytes >= TEN_MB).map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'POST /v1/logs',
      'POST /v1/traces',
      'PUT /integrations/{id}/bundle',
    ]);
  });

  it('answers 413 to a 10 MB Content-Length within 1 s, before any body byte is sent, on every PUT and POST route', async () => {
    const outcomes = await Promise.all(refusedRoutes().map(async (r) => [`${r.method} ${r.path}`, await announce(r.method, concrete(r.path), TEN_MB)] as const));
    const wrong = outcomes.filter(([, o]) => o.status !== 413 || o.error !== undefined || o.ms > 1_000);
    expect(wrong, JSON.stringify(wrong)).toEqual([]);
    for (const [, o] of outcomes) expect(JSON.parse(o.body!).error.code).toMatch(/too_large/);
  });

  it('lets a client that sends the whole 10 MB body read the 413 on every PUT and POST route, never a reset or a 5xx', async () => {
    const outcomes: Array<[string, Outcome]> = [];
    for (const r of refusedRoutes()) outcomes.push([`${r.method} ${r.path}`, await send(r.method, concrete(r.path), TEN_MB, true)]);
    const wrong = outcomes.filter(([, o]) => o.status !== 413 || o.error !== undefined);
    expect(wrong, JSON.stringify(wrong)).toEqual([]);
  }, 120_000);

  it('a client on a slow link, still sending for seconds after the 413 went out, reads it too', async () => {
    const started = Date.now();
    const outcome = await send('POST', '/v1/queues/slow/publish', TEN_MB, true, 300);
    expect(outcome).toMatchObject({ status: 413, error: undefined });
    expect(Date.now() - started).toBeGreaterThan(2_500);
  }, 30_000);
});
