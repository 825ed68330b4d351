import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveYaml, type Served } from './test-support/serve-yaml.ts';

const APP = 'https://app.example.com';

async function call(url: string, method: string, headers: Record<string, string>) {
  const res = await request(url, { method, headers });
  await res.body.dump();
  return { status: res.statusCode, headers: res.headers };
}

const flows = `flows:
  items:
    source: {type: http, path: /items, methods: [GET, PUT]}
    steps: [{set: {body: '{"ok": true}', vars: {X-Total: '2'}}}]
`;

describe('CORS (spec 2 §2.1)', () => {
  let inert: Served;
  let listed: Served;
  let any: Served;
  beforeAll(async () => {
    inert = await serveYaml(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0, cors: {allowedOrigins: []}}
${flows}`);
    listed = await serveYaml(`connectors:
  http:
    type: http
    host: 127.0.0.1
    port: 0
    cors:
      allowedOrigins: [${APP}]
      allowedMethods: [GET, PUT]
      exposedHeaders: [X-Total]
      allowCredentials: true
      maxAge: 10m
${flows}`);
    any = await serveYaml(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0, cors: {allowedOrigins: ['*'], allowedHeaders: [Content-Type]}}
${flows}`);
  });
  afterAll(async () => {
    await Promise.all([inert.stop(), listed.stop(), any.stop()]);
  });

  it('stays inert without allowed origins: no headers, and OPTIONS goes to the route (405 here)', async () => {
    const res = await call(`${inert.url}/items`, 'GET', { origin: APP });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await call(`${inert.url}/items`, 'OPTIONS', { origin: APP, 'access-control-request-method': 'PUT' });
    expect(preflight.status).toBe(405);
  });

  it('answers a preflight from an allowed origin with methods, echoed headers, credentials and max age', async () => {
    const res = await call(`${listed.url}/items`, 'OPTIONS', {
      origin: APP,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type, x-tenant',
    });
    expect(res.status).toBe(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, PUT',
      'access-control-allow-headers': 'content-type, x-tenant',
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '600',
    });
  });

  it('gives a preflight from another origin, or for a method not allowed, no allowances', async () => {
    const stranger = await call(`${listed.url}/items`, 'OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'PUT' });
    expect(stranger.status).toBe(204);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    const del = await call(`${listed.url}/items`, 'OPTIONS', { origin: APP, 'access-control-request-method': 'DELETE' });
    expect(del.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('echoes an allowed origin with credentials on actual requests and exposes the listed headers', async () => {
    const res = await call(`${listed.url}/items`, 'GET', { origin: APP });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Total',
      vary: 'Origin',
    });
    const stranger = await call(`${listed.url}/items`, 'GET', { origin: 'https://evil.example' });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('adds CORS headers to refusals too, so the browser can read them', async () => {
    const res = await call(`${listed.url}/items`, 'DELETE', { origin: APP });
    expect(res.status).toBe(405);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
  });

  it('answers * for a wildcard origin without credentials, with the configured allowed headers', async () => {
    expect((await call(`${any.url}/items`, 'GET', { origin: 'https://anyone.example' })).headers['access-control-allow-origin']).toBe('*');
    const preflight = await call(`${any.url}/items`, 'OPTIONS', {
      origin: 'https://anyone.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-other',
    });
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
      'access-control-allow-headers': 'Content-Type',
    });
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
