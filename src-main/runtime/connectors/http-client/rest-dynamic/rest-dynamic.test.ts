import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { problemsOf, startYaml } from '../../../testing/load-yaml.ts';
import { json, startRecordingServer, type RecordingServer } from '../testing/recording-server.ts';

let server: RecordingServer;
let runtime: Runtime | undefined;

beforeAll(async () => {
  server = await startRecordingServer((req, res) => json(res, 200, { path: req.url }));
});
afterAll(() => server.close());
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  server.reset();
});

/** A proxy flow: method, path, query, headers and body all come from the message. */
async function startProxy(guards: string): Promise<Runtime> {
  ({ runtime } = await startYaml(`connectors:
  backend: {type: http-client, baseURL: "${server.url}/base"}
flows:
  proxy:
    steps:
      - rest-dynamic:
          connector: backend
          method: vars.method
          path: vars.path
          query: vars.query
          headers: vars.headers
          body: body
${guards.replace(/^/gm, '          ')}
`));
  return runtime;
}

const call = (method: string, path: string, extra: { query?: unknown; headers?: unknown; body?: unknown } = {}) =>
  runtime!.run('proxy', extra.body ?? null, { method, path, query: extra.query ?? {}, headers: extra.headers ?? {} });

describe('rest-dynamic request', () => {
  it('builds every part of the request from the message', async () => {
    await startProxy('pathPrefix: /api');
    const result = await call('post', '/api/orders?src=web', {
      query: { page: 2, filter: { status: 'open' }, none: null },
      headers: { Authorization: 'Bearer caller-token', 'X-Flag': true },
      body: { item: 'x' },
    });
    expect(result.outcome).toBe('completed');
    const a = server.arrivals[0];
    expect(a.method).toBe('POST');
    expect(a.url).toBe('/base/api/orders?src=web&page=2&filter=%7B%22status%22%3A%22open%22%7D');
    expect(a.headers.authorization).toBe('Bearer caller-token');
    expect(a.headers['x-flag']).toBe('true');
    expect(JSON.parse(a.body.toString())).toEqual({ item: 'x' });
    expect(result.message.body).toEqual({ path: a.url });
  });

  it('allows a ".." inside a query value and the prefix itself', async () => {
    await startProxy('pathPrefix: /api/');
    expect((await call('GET', '/api?next=../up')).outcome).toBe('completed');
    expect((await call('GET', 'api/items')).outcome).toBe('completed');
    expect(server.arrivals.map((a) => a.url)).toEqual(['/base/api?next=../up', '/base/api/items']);
  });
});

describe('rest-dynamic refusals', () => {
  it('refuses every unsafe request before any reaches the server', async () => {
    await startProxy('pathPrefix: /api\nallowMethods: [GET, POST]');
    const refusals: Array<[string, string, string]> = [
      ['DELETE', '/api/orders/1', 'method "DELETE" is not allowed; allowed: GET, POST'],
      ['FETCH', '/api/orders', 'method "FETCH" is not allowed'],
      ['GET', 'http://evil.example/api', 'a full URL is refused'],
      ['GET', 'HTTPS://evil.example/api', 'a full URL is refused'],
      ['GET', '//evil.example/api', 'a full URL is refused'],
      ['GET', '\\\\evil.example/api', 'a full URL is refused'],
      ['GET', '/api/../admin', 'may not contain a ".." segment'],
      ['GET', '/api/%2e%2e/admin', 'may not contain a ".." segment'],
      ['GET', '/api/%2E./admin', 'may not contain a ".." segment'],
      ['GET', '/api/.%2e', 'may not contain a ".." segment'],
      ['GET', '/api%2f..%2fadmin', 'may not contain a ".." segment'],
      ['GET', '/api/%252e%252e/admin', 'may not contain a ".." segment'],
      ['GET', '/api\\..\\admin', 'may not contain a ".." segment'],
      ['GET', '/api/..;/admin', 'may not contain a ".." segment'],
      ['GET', '/apiary', 'outside the allowed prefix /api'],
      ['GET', '/admin', 'outside the allowed prefix /api'],
      ['GET', '/', 'outside the allowed prefix /api'],
    ];
    for (const [method, path, message] of refusals) {
      const result = await call(method, path);
      expect(result.outcome, `${method} ${path}`).toBe('failed');
      expect(result.error?.message, `${method} ${path}`).toContain(message);
    }
    expect(server.arrivals).toHaveLength(0);
  });

  it('allows the standard methods when allowMethods is empty, and the whole base URL without pathPrefix', async () => {
    await startProxy('failOnError: false');
    for (const m of ['get', 'HEAD', 'post', 'PUT', 'patch', 'DELETE', 'options']) expect((await call(m, '/anything')).outcome).toBe('completed');
    expect((await call('TRACE', '/anything')).error?.message).toContain('not allowed');
    expect((await call('GET', '../up')).error?.message).toContain('".." segment');
    expect(server.arrivals.map((a) => a.method)).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
  });

  it('fails at load for a non-method in allowMethods', () => {
    expect(problemsOf(`connectors:
  backend: {type: http-client, baseURL: "https://backend.example"}
flows:
  proxy:
    steps:
      - rest-dynamic: {connector: backend, method: vars.method, path: vars.path, allowMethods: [GET, FETCH]}
`)).toEqual([
      'flows.yaml:6:102 flows.proxy.steps[0].rest-dynamic.allowMethods[1]: "FETCH" is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    ]);
  });
});
