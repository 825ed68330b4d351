import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type LogRecord } from '../../core/logger.ts';
import { definitionFilesIn, readDefinitions } from '../../core/load/integration-files.ts';
import { Runtime } from '../../core/runtime.ts';
import { registry } from '../../registry.ts';
import { curl } from './test-support/curl.ts';
import { SseReader } from './test-support/sse-client.ts';

const examples = fileURLToPath(new URL('../../../../examples/', import.meta.url));
const running: Runtime[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop(1_000);
});

/** Starts an example exactly as `flow-studio run examples/<name>` would, and finds its URL. */
async function startExample(name: string): Promise<{ url: string; logs: LogRecord[] }> {
  const logs: LogRecord[] = [];
  const runtime = Runtime.load(readDefinitions(definitionFilesIn(`${examples}${name}`)), {
    registry,
    env: {},
    log: createLogger({ level: 'debug', sinks: [(r) => logs.push(r)] }),
  });
  running.push(runtime);
  await runtime.start();
  return { url: runtime.describe().connectors.find((c) => c.type === 'http')!.details!.url as string, logs };
}

describe('the http examples', () => {
  it('webhook-receiver acknowledges a sender’s event with 202, and refuses a bad token or another sender', async () => {
    const { url, logs } = await startExample('webhook-receiver');
    const token = (sub: string) =>
      new SignJWT({ sub }).setProtectedHeader({ alg: 'HS256' }).setIssuer('webhook-sender').sign(new TextEncoder().encode('dev-only-webhook-secret-change-me!'));
    const headers = { authorization: `Bearer ${await token('billing')}`, 'x-event-type': 'invoice.paid', 'x-delivery-id': 'd-1' };
    const res = await fetch(`${url}/webhooks/billing`, { method: 'POST', headers, body: '{"invoice": "inv-7"}' });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-delivery-id')).toBe('d-1');
    expect(await res.json()).toEqual({ received: true, sender: 'billing', event: 'invoice.paid', delivery: 'd-1' });
    expect(logs.find((l) => l.msg === 'webhook invoice.paid from billing')).toMatchObject({ delivery: 'd-1', bytes: 20 });
    const wrong = await fetch(`${url}/webhooks/billing`, { method: 'POST', headers: { ...headers, authorization: 'Bearer nonsense' }, body: '{}' });
    expect(wrong.status).toBe(401);
    const other = await fetch(`${url}/webhooks/billing`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${await token('shop')}` }, body: '{}' });
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ error: 'this token may not post as billing' });
  });

  it('json-api reads, replaces and deletes by id, validates through a sub-flow, and answers 405 itself', async () => {
    const { url } = await startExample('json-api');
    expect(await (await fetch(`${url}/api/items/42?fields=name,price`)).json()).toEqual({ id: '42', name: 'item 42', fields: ['name', 'price'] });
    const put = await fetch(`${url}/api/items/42`, { method: 'PUT', body: '{"name": "lamp", "price": 30}' });
    expect(put.headers.get('location')).toBe('/api/items/42');
    expect(await put.json()).toEqual({ id: '42', name: 'lamp', price: 30, saved: true });
    const invalid = await fetch(`${url}/api/items/42`, { method: 'PUT', body: '{"price": 30}' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ error: 'name is required' });
    expect((await fetch(`${url}/api/items/42`, { method: 'DELETE' })).status).toBe(204);
    const patch = await fetch(`${url}/api/items/42`, { method: 'PATCH' });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE');
  });

  it('multipart-echo lists the parts of a curl -F upload', async () => {
    const { url } = await startExample('multipart-echo');
    const dir = mkdtempSync(join(tmpdir(), 'upload-'));
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    const res = await curl(['-F', 'title=Report', '-F', 'tag=a', '-F', 'tag=b', '-F', `file=@${join(dir, 'notes.txt')};type=text/plain`, `${url}/upload`]);
    rmSync(dir, { recursive: true, force: true });
    expect(res.status).toBe(200);
    const got = JSON.parse(res.body);
    expect(got.parts).toEqual([
      { name: 'title', filename: null, contentType: 'text/plain', size: 6, text: 'Report' },
      { name: 'tag', count: 2 },
      { name: 'file', filename: 'notes.txt', contentType: 'text/plain', size: 6, text: null },
    ]);
    expect((await fetch(`${url}/upload`, { method: 'POST', body: '{}' })).status).toBe(415);
  });

  it('sse-progress streams progress from the flow and its sub-flow, then the result as done', async () => {
    const { url } = await startExample('sse-progress');
    const frames = await (await SseReader.open(`${url}/jobs/report-7/progress`)).rest();
    expect(frames).toEqual([
      { event: 'progress', data: '{"job":"report-7","percent":0,"stage":"queued"}' },
      { event: 'progress', data: '{"job":"report-7","percent":50,"stage":"collecting"}' },
      { event: 'progress', data: '{"job":"report-7","percent":100,"stage":"rendering"}' },
      { event: 'done', data: '{"job":"report-7","result":"complete"}' },
    ]);
  });
});
