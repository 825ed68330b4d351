import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

describe('a request becomes the flow’s message (spec 2 §2.3)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  echo:
    source:
      type: http
      path: /tenants/{tenant}/orders/{id}
      headers: [X-Tenant, Authorization]
      correlationIdHeader: X-Request-ID
      rawBodyVar: raw
    steps:
      - set:
          body: |
            {"tenant": vars.tenant, "id": vars.id, "method": vars.method, "query": vars.query,
             "xTenant": "X-Tenant" in vars ? vars["X-Tenant"] : "none", "raw": vars.raw,
             "body": body, "correlationID": correlationID, "hasAuth": has(vars.Authorization)}
  raw:
    source: {type: http, path: /raw, rawBody: true}
    steps:
      - set: {vars: {type: 'body.contentType', text: 'string(body.rawData)'}}
      - set: {body: '{"type": vars.type, "text": vars.text}'}
  raw-empty:
    source: {type: http, path: /raw-empty, rawBody: true}
    steps:
      - set: {body: '{"isNull": body == null}'}
`);
  });
  afterAll(() => s.stop());

  it('puts path parameters, method, query, listed headers and the raw bytes in vars, and the JSON body in body', async () => {
    const res = await fetch(`${s.url}/tenants/acme/orders/o%2F7?expand=items&expand=notes&page=2`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-tenant': 'acme-eu', 'x-request-id': 'req-42' },
      body: '{"qty": 3}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      tenant: 'acme',
      id: 'o/7',
      method: 'PUT',
      query: { expand: 'items', page: '2' },
      xTenant: 'acme-eu',
      raw: '{"qty": 3}',
      body: { qty: 3 },
      correlationID: 'req-42',
      hasAuth: false,
    });
  });

  it('always gives an empty query map, and an empty body stays null', async () => {
    const res = await fetch(`${s.url}/tenants/a/orders/1`, { method: 'POST' });
    const got = await res.json();
    expect(got.query).toEqual({});
    expect(got.body).toBeNull();
    expect(got.correlationID).toMatch(/.+/);
  });

  it('answers 400 for malformed JSON before the flow runs', async () => {
    const before = s.runs.length;
    const res = await fetch(`${s.url}/tenants/a/orders/1`, { method: 'POST', body: '{"qty": ' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^malformed JSON body/);
    expect(s.runs.length).toBe(before);
  });

  it('with rawBody keeps any bytes as {contentType, rawData} using the request Content-Type', async () => {
    const res = await fetch(`${s.url}/raw`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b\n1,2' });
    expect(await res.json()).toEqual({ type: 'text/csv', text: 'a,b\n1,2' });
    const empty = await fetch(`${s.url}/raw-empty`, { method: 'POST' });
    expect(await empty.json()).toEqual({ isNull: true });
  });

  it('answers 404 naming the path when no flow serves it', async () => {
    const res = await fetch(`${s.url}/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no route for GET /nothing/here' });
  });
});

describe('the flow’s result becomes the response (spec 2 §2.4, §7)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  created:
    source: {type: http, path: /created, responseHeaders: [Location, X-Count, X-Object, Content-Type]}
    steps:
      - set:
          vars: {httpStatus: '201', Location: '"/orders/9"', X-Count: '3', X-Object: '{"a": 1}', Content-Type: '"text/evil"'}
          body: '{"id": 9}'
  raw-out:
    source: {type: http, path: /csv}
    steps:
      - set: {body: '{"contentType": "text/csv; charset=utf-8", "rawData": "a,b\\n1,2"}'}
  dropped:
    source: {type: http, path: /dropped}
    steps:
      - filter: {condition: 'false'}
  failed:
    source: {type: http, path: /failed}
    steps:
      - set: {body: 'body.missing.deeper'}
  shaped-failure:
    source: {type: http, path: /shaped-failure}
    steps:
      - set: {body: 'body.missing.deeper'}
    onError:
      - set: {vars: {httpStatus: '502'}, body: '{"upstream": "down", "step": vars.error.step}'}
  rejected:
    source: {type: http, path: /rejected}
    steps:
      - filter: {condition: 'has(vars.query.id)', reject: {status: 400, body: '{"error": "id is required"}'}}
      - set: {body: '{"id": vars.query.id}'}
  out-of-range:
    source: {type: http, path: /odd-status}
    steps:
      - set: {vars: {httpStatus: '700'}, body: '"still ok"'}
  slow:
    source: {type: http, path: /slow, timeout: 100ms}
    steps:
      - wait: {for: 3s}
`);
  });
  afterAll(() => s.stop());

  it('uses vars.httpStatus and copies scalar response headers, never Content-Type', async () => {
    const res = await fetch(`${s.url}/created`);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/orders/9');
    expect(res.headers.get('x-count')).toBe('3');
    expect(res.headers.get('x-object')).toBeNull();
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 9 });
  });

  it('sends raw content with its own Content-Type', async () => {
    const res = await fetch(`${s.url}/csv`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await res.text()).toBe('a,b\n1,2');
  });

  it('answers 204 for a dropped message', async () => {
    const res = await fetch(`${s.url}/dropped`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('answers 500 {error} for a failed flow, or the status and body its error chain set', async () => {
    const failed = await fetch(`${s.url}/failed`);
    expect(failed.status).toBe(500);
    expect(Object.keys(await failed.json())).toEqual(['error']);
    const shaped = await fetch(`${s.url}/shaped-failure`);
    expect(shaped.status).toBe(502);
    expect(await shaped.json()).toEqual({ upstream: 'down', step: 'flows.shaped-failure.steps[0]' });
  });

  it('answers a validation filter’s rejection with 400 and its body', async () => {
    const res = await fetch(`${s.url}/rejected`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'id is required' });
    expect(await (await fetch(`${s.url}/rejected?id=5`)).json()).toEqual({ id: '5' });
  });

  it('ignores an httpStatus outside 100–599', async () => {
    const res = await fetch(`${s.url}/odd-status`);
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('still ok');
  });

  it('answers 504 when the flow is slower than the route timeout', async () => {
    const t0 = Date.now();
    const res = await fetch(`${s.url}/slow`);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ error: 'flow "slow" did not answer within 100ms' });
    // Well before the 3 s flow ends: the route's timeout answered, however busy the machine.
    expect(Date.now() - t0).toBeLessThan(1500);
  });
});

describe('methods (spec 2 §2.2)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  read:
    source: {type: http, path: /items, methods: [GET]}
    steps:
      - log: {message: '"ran for " + vars.method'}
      - set: {body: '{"items": []}'}
  write:
    source: {type: http, path: /items, methods: [POST, DELETE]}
    steps:
      - set: {body: '{"written": vars.method}'}
`);
  });
  afterAll(() => s.stop());

  it('answers other methods 405 with an Allow header, before any flow runs', async () => {
    const before = s.runs.length;
    const res = await fetch(`${s.url}/items`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, POST');
    expect(s.runs.length).toBe(before);
  });

  it('routes each method to the flow that lists it', async () => {
    expect(await (await fetch(`${s.url}/items`, { method: 'DELETE' })).json()).toEqual({ written: 'DELETE' });
    expect(await (await fetch(`${s.url}/items`)).json()).toEqual({ items: [] });
  });

  it('answers HEAD on a GET route by running the flow, without a body', async () => {
    const res = await fetch(`${s.url}/items`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String('{"items":[]}'.length));
    expect(await res.text()).toBe('');
    await s.logged('ran for HEAD');
  });
});
