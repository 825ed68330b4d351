import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../core/runtime.ts';
import { startYaml } from '../../testing/load-yaml.ts';
import { json, startRecordingServer, type RecordingServer } from './testing/recording-server.ts';

const examples = new URL('../../../../examples/', import.meta.url);

/** The example as shipped: its http connector on loopback, on a port the OS picks. */
function example(path: string): string {
  const text = readFileSync(new URL(path, examples), 'utf8');
  if (!text.includes('  web:\n    type: http\n') || !text.includes('    host: 127.0.0.1\n    port: 0\n')) throw new Error(`${path} no longer declares its http connector on 127.0.0.1, port 0`);
  return text;
}

function routeURL(runtime: Runtime): string {
  const web = runtime.describe().connectors.find((c) => c.type === 'http');
  return String(web?.details?.url);
}

let upstream: RecordingServer;
let runtime: Runtime | undefined;

beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterAll(() => upstream.close());
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  upstream.reset();
});

describe('examples/oauth-api-client', () => {
  it('answers invoices from the billing API with one minted token and repeated lookups from the cache', async () => {
    upstream.handle((req, res) => {
      if (req.url === '/oauth/token') return json(res, 200, { access_token: 'billing-token', token_type: 'bearer', expires_in: 3600 });
      if (req.headers.authorization !== 'Bearer billing-token') return json(res, 401, {});
      json(res, 200, { data: [{ id: 'in-1', dueDate: '2025-10-01', amount: 120.5 }, { id: 'in-2', dueDate: '2025-11-01', amount: 79.5 }] });
    });
    ({ runtime } = await startYaml(example('oauth-api-client/invoices.yaml'), {
      BILLING_API_URL: `${upstream.url}/v1`,
      BILLING_TOKEN_URL: `${upstream.url}/oauth/token`,
      BILLING_CLIENT_ID: 'invoices-app',
      BILLING_CLIENT_SECRET: 'billing-client-secret',
    }));
    const base = routeURL(runtime);
    for (let i = 0; i < 2; i++) {
      const res = await request(`${base}/customers/c-42/invoices?limit=5`);
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({
        customer: 'c-42',
        count: 2,
        invoices: [
          { id: 'in-1', due: '2025-10-01', amount: 120.5 },
          { id: 'in-2', due: '2025-11-01', amount: 79.5 },
        ],
      });
    }
    expect(upstream.arrivals.map((a) => a.url)).toEqual(['/oauth/token', '/v1/invoices?customer=c-42&status=open&limit=5']);
  });
});

describe('examples/rest-proxy', () => {
  it('forwards method, path, query, body and the caller’s Authorization under /api/v2, and passes the status back', async () => {
    upstream.handle((req, res, a) => (req.url?.includes('missing') ? json(res, 404, { error: 'not found' }) : json(res, 200, { got: a.url })));
    ({ runtime } = await startYaml(example('rest-proxy/catalog-proxy.yaml'), { CATALOG_URL: upstream.url }));
    const base = routeURL(runtime);

    const list = await request(`${base}/catalog/books?author=le%20guin`, { headers: { authorization: 'Bearer caller' } });
    expect(list.statusCode).toBe(200);
    expect(await list.body.json()).toEqual({ got: '/api/v2/books?author=le%20guin' });
    expect(upstream.arrivals[0].headers.authorization).toBe('Bearer caller');

    const created = await request(`${base}/catalog/books`, { method: 'POST', body: '{"title":"The Dispossessed"}', headers: { 'content-type': 'application/json' } });
    expect(created.statusCode).toBe(200);
    await created.body.dump();
    expect(upstream.arrivals[1].method).toBe('POST');
    expect(upstream.arrivals[1].headers['content-type']).toBe('application/json');
    expect(upstream.arrivals[1].body.toString()).toBe('{"title":"The Dispossessed"}');

    const missing = await request(`${base}/catalog/books/missing`);
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
  });

  it('refuses a path that would climb out of /api/v2 without calling the backend', async () => {
    ({ runtime } = await startYaml(example('rest-proxy/catalog-proxy.yaml'), { CATALOG_URL: upstream.url }));
    const base = routeURL(runtime);
    // The route decodes {item} to "../admin"; the computed path would be /api/v2/books/../admin.
    const res = await request(`${base}/catalog/books/..%2Fadmin`);
    expect(res.statusCode).toBe(502);
    expect(await res.body.json()).toEqual({ error: 'rest-dynamic refused the request, nothing was sent: path may not contain a ".." segment' });
    expect(upstream.arrivals).toHaveLength(0);
  });
});
