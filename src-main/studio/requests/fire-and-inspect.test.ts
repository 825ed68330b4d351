import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestProgress, SseFrame } from '../../../shared/request-types.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const ORDERS = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  price-order:
    source: {type: http, path: '/orders/{shop}/price', methods: [POST]}
    steps:
      - name: line totals
        set:
          vars: {lines: 'body.items.map(i, i.price * i.quantity)'}
      - name: answer
        set:
          body: '{"customer": body.customer, "shop": vars.shop, "lineTotals": vars.lines}'
`;

const PROGRESS = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  progress:
    source:
      type: http
      path: /jobs/{job}/progress
      methods: [GET]
      sse: {enabled: true, heartbeat: 200ms, finalEvent: true, finalEventName: done, closeOnComplete: SSE_CLOSE, maxStreams: 1}
    steps:
      - sse-event: {event: progress, data: '{"job": vars.job, "percent": 50}'}
      - set: {body: '{"job": vars.job, "result": "complete"}'}
`;

const NOTES = `
env:
  NOTES_TOKEN: {default: "integration-token-1", secret: true}
  NOTES_VERIFICATION_TOKEN: {default: "verification-secret-42", secret: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  notes: {type: notes, token: '\${NOTES_TOKEN}', verificationToken: '\${NOTES_VERIFICATION_TOKEN}'}
flows:
  notes-in:
    source: {type: http, connector: web, path: /webhooks/notes, methods: [POST], headers: [X-Notes-Signature], rawBody: true}
    steps:
      - notes-verify-request: {connector: notes}
      - set: {body: '{"accepted": has(body.type) ? body.type : "handshake"}'}
`;

const HANDSHAKE = NOTES.replace(`  NOTES_VERIFICATION_TOKEN: {default: "verification-secret-42", secret: true}
`, '').replace(", verificationToken: '\${NOTES_VERIFICATION_TOKEN}'", '');

const PROXY = (base: string) => `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  upstream: {type: http-client, baseURL: '${base}', retry: {maxAttempts: 3, maxBackoff: 10ms}}
flows:
  fetch-item:
    source: {type: http, path: '/items/{id}', methods: [GET]}
    steps:
      - rest: {connector: upstream, method: GET, path: /items, query: {id: vars.id}}
`;

let h: StudioHarness;
let upstream: Server;
let upstreamHits = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    // The first attempt is told to come back, so the call shows one retry.
    if (upstreamHits++ % 2 === 0) {
      res.writeHead(429, { 'retry-after': '0' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: req.url }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  h = await startStudioHarness({
    orders: { 'orders.yaml': ORDERS },
    progress: { 'progress.yaml': PROGRESS.replace('SSE_CLOSE', 'false') },
    notes: { 'notes.yaml': NOTES },
    bootstrap: { 'notes.yaml': HANDSHAKE },
    proxy: { 'proxy.yaml': PROXY(base) },
  });
  for (const id of ['orders', 'progress', 'notes', 'bootstrap', 'proxy']) await h.backend.api.startIntegration(id);
});

afterAll(async () => {
  await h?.close();
  upstream?.close();
});

const api = () => h.backend.api;
const routeUrl = (integration: string) => h.states.filter((s) => s.integration === integration && s.status === 'running').at(-1)!.routes[0].url;

describe('firing a request from the composer', () => {
  it('answers with status, headers, body and timing, and links the capture and the run it started', async () => {
    const url = routeUrl('orders').replace('{shop}', 'north');
    const entry = await api().sendRequest({
      id: 'req-1',
      method: 'POST',
      url,
      headers: [['content-type', 'application/json']],
      body: { kind: 'json', text: JSON.stringify({ customer: 'ana', items: [{ price: 2.5, quantity: 4 }] }) },
      target: { integration: 'orders', flow: 'price-order', route: '/orders/{shop}/price' },
    });
    expect(entry.response.status).toBe(200);
    expect(JSON.parse(entry.response.body.text!)).toEqual({ customer: 'ana', shop: 'north', lineTotals: [10] });
    expect(entry.response.timing.totalMs).toBeGreaterThanOrEqual(0);
    expect(entry.captureId).toBeDefined();
    expect(entry.runId).toBeDefined();

    const run = await api().runDetail(entry.runId!);
    expect(run!.summary).toMatchObject({ flow: 'price-order', status: 200, route: '/orders/{shop}/price', method: 'POST', captureId: entry.captureId });
    expect(run!.steps.map((s) => s.name)).toEqual(['line totals', 'answer']);
    const answer = run!.steps[1];
    expect(answer.input!.body).toEqual({ customer: 'ana', items: [{ price: 2.5, quantity: 4 }] });
    expect(answer.output!.body).toEqual({ customer: 'ana', shop: 'north', lineTotals: [10] });
    expect(await api().requestHistory()).toContainEqual(expect.objectContaining({ id: 'req-1' }));
  });

  it('refuses a JSON body that does not parse, saying where', async () => {
    await expect(
      api().sendRequest({ id: 'req-bad', method: 'POST', url: routeUrl('orders'), headers: [], body: { kind: 'json', text: '{"customer": ' } }),
    ).rejects.toThrow(/JSON body is not valid/);
  });
});

describe('webhook capture', () => {
  it('captures a request from any client with its exact bytes, searchable by path, status, header and body', async () => {
    const bytes = '{"customer":"zoe",  "items":[{"price":1,"quantity":3}]}';
    const res = await fetch(routeUrl('orders').replace('{shop}', 'south'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-delivery': 'd-77' }, body: bytes });
    expect(res.status).toBe(200);
    const page = await waitFor(async () => {
      const p = await api().listCaptures({ search: 'path:/orders/south header:d-77 body:zoe status:2xx' });
      return p.total === 1 ? p : undefined;
    });
    const detail = (await api().captureDetail(page.rows[0].id))!;
    expect(detail.requestBody.text).toBe(bytes);
    expect(detail.runId).toBeDefined();
    expect((await api().listCaptures({ search: 'status:5xx body:zoe' })).total).toBe(0);
  });

  it('replays a capture against the flow as edited, producing a second run the comparison shows as changed', async () => {
    await fetch(routeUrl('orders').replace('{shop}', 'east'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"customer":"ivo","items":[{"price":2,"quantity":2}]}' });
    const captured = await waitFor(async () => (await api().listCaptures({ search: 'body:ivo' })).rows[0]);
    const before = captured.runId!;
    const generation = h.states.filter((s) => s.integration === 'orders').at(-1)!.generation;
    await api().writeFile('orders', 'orders.yaml', ORDERS.replace('"lineTotals": vars.lines', '"lineTotals": vars.lines, "edited": true'));
    await h.waitForState('orders', (s) => s.status === 'running' && s.generation > generation);
    const replay = await api().replayCapture(captured.id, 'replay-1');
    expect(replay.replayOf).toBe(captured.id);
    expect(JSON.parse(replay.response.body.text!)).toMatchObject({ edited: true });
    expect(replay.runId).toBeDefined();
    expect(replay.runId).not.toBe(before);
    const cmp = await api().compareRuns(before, replay.runId!);
    expect(cmp.steps.map((s) => [s.name, s.same])).toEqual([
      ['line totals', true],
      ['answer', false],
    ]);
  });
});

describe('SSE in the composer', () => {
  it('streams frames live, marks heartbeats, and Stop closes the connection the server then sees', async () => {
    const progress: RequestProgress[] = [];
    const stop = h.backend.on('requestProgress', (p) => progress.push(p));
    const url = routeUrl('progress').replace('{job}', 'j1');
    const sending = api().sendRequest({ id: 'sse-1', method: 'GET', url, headers: [], body: { kind: 'none' } });
    const frames = (): SseFrame[] => progress.filter((p) => p.id === 'sse-1').flatMap((p) => p.frames);
    await waitFor(async () => (frames().some((f) => f.event === 'done') && frames().some((f) => f.heartbeat) ? true : undefined), 5_000);
    // maxStreams: 1, so a second caller is turned away while the first stream is open.
    expect((await fetch(url)).status).toBe(503);
    await api().stopRequest('sse-1');
    const entry = await sending;
    stop();
    expect(entry.response.endedBy).toBe('stopped');
    expect(entry.response.frames!.filter((f) => !f.heartbeat).map((f) => f.event)).toEqual(['progress', 'done']);
    const capture = await waitFor(async () => (await api().listCaptures({ search: 'path:/jobs/j1 status:200' })).rows[0]);
    expect(capture).toMatchObject({ ended: 'client-closed', stream: true, status: 200 });
    const again = await fetch(url);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});

describe('the signature helper', () => {
  const body = JSON.stringify({ type: 'page.content_updated', entityId: 'p-1' });
  const target = { integration: 'notes', flow: 'notes-in', route: '/webhooks/notes' };

  it('signs a body so it passes notes-verify-request, without ever returning the token', async () => {
    const signed = await api().signRequestBody(target, { kind: 'json', text: body });
    expect(signed).toMatchObject({ ok: true, header: 'X-Notes-Signature' });
    expect(JSON.stringify(signed)).not.toContain('verification-secret-42');
    const entry = await api().sendRequest({ id: 'signed-1', method: 'POST', url: routeUrl('notes'), headers: [], body: { kind: 'json', text: body }, target, sign: true });
    expect(entry.response.status).toBe(200);
    const capture = await waitFor(async () => (await api().listCaptures({ search: `body:p-1 status:200` })).rows[0]);
    expect(capture.verification).toEqual({ ok: true, reason: 'signature valid' });
  });

  it('shows why a tampered request failed verification', async () => {
    const signed = await api().signRequestBody(target, { kind: 'json', text: body });
    if (!signed.ok) throw new Error(signed.reason);
    const tampered = body.replace('p-1', 'p-2');
    const entry = await api().sendRequest({ id: 'tampered-1', method: 'POST', url: routeUrl('notes'), headers: [[signed.header, signed.value]], body: { kind: 'json', text: tampered } });
    expect(entry.response.status).toBeGreaterThanOrEqual(400);
    const capture = await waitFor(async () => (await api().listCaptures({ search: 'body:p-2' })).rows[0]);
    // Next to the reason: the signature the tampered body needed, and the one it carried.
    expect(capture.verification).toEqual({
      ok: false,
      reason: 'notes webhook rejected: X-Notes-Signature does not match the request body',
      expected: `sha256=${createHmac('sha256', 'verification-secret-42').update(tampered).digest('hex')}`,
      received: signed.value,
    });
    const unsigned = await api().sendRequest({ id: 'unsigned-1', method: 'POST', url: routeUrl('notes'), headers: [], body: { kind: 'json', text: body.replace('p-1', 'p-3') } });
    expect(unsigned.response.status).toBeGreaterThanOrEqual(400);
    const third = await waitFor(async () => (await api().listCaptures({ search: 'body:p-3' })).rows[0]);
    expect(third.verification?.reason).toMatch(/unsigned request/);
  });

  it('signs any body with a cluster secret of the Secrets panel and mints a JWT with it, never answering the value', async () => {
    await api().putSecret('hook-secret', 'cluster-hook-secret-5');
    const r = await api().signBodyHmac({ body: { kind: 'json', text: body }, secret: { kind: 'secret', name: 'hook-secret' }, encoding: 'hex', header: 'X-Hub-Signature-256', prefix: 'sha256=', payload: 'body' });
    expect(r).toEqual({ ok: true, header: 'X-Hub-Signature-256', value: `sha256=${createHmac('sha256', 'cluster-hook-secret-5').update(body).digest('hex')}` });
    const jwt = await api().mintJwt({ header: '{"typ": "JWT"}', claims: '{"sub": "billing"}', secret: { kind: 'secret', name: 'hook-secret' } });
    expect(jwt.ok && jwt.token.split('.')).toHaveLength(3);
    expect(JSON.stringify([r, jwt, await api().listSecrets()])).not.toContain('cluster-hook-secret-5');
  });

  it('explains why it cannot sign for a flow without notes-verify-request', async () => {
    const r = await api().signRequestBody({ integration: 'orders', flow: 'price-order', route: '/orders/{shop}/price' }, { kind: 'none' });
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/no notes-verify-request step/) });
  });
});

describe('a captured handshake token', () => {
  it('is masked in captures, runs, logs and history, while the helper can sign with it', async () => {
    const target = { integration: 'bootstrap', flow: 'notes-in', route: '/webhooks/notes' };
    expect(await api().signRequestBody(target, { kind: 'none' })).toMatchObject({ ok: false, reason: expect.stringMatching(/no verification token is known yet/) });
    const token = 'handshake-secret-7f3a';
    // The notes service sends the handshake, not the studio.
    const hello = await fetch(routeUrl('bootstrap'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ verification_token: token }) });
    expect(hello.status).toBe(200);
    const row = await waitFor(async () => (await api().listCaptures({ search: 'path:/webhooks/notes' })).rows.find((r) => r.integration === 'bootstrap' && r.verification));
    const capture = (await api().captureDetail(row.id))!;
    expect(capture.verification).toEqual({ ok: true, reason: 'unsigned subscription handshake: the verification token was captured', handshake: true });
    const run = await api().runDetail(row.runId!);
    await h.waitForFeed((e) => e.kind === 'log' && e.log.msg.includes('verification token captured'));
    for (const seen of [capture, run, h.feed, await api().listCaptures({}), await api().requestHistory(), await api().queryRuns({ offset: 0, limit: 50 })]) {
      expect(JSON.stringify(seen)).not.toContain(token);
    }

    const event = JSON.stringify({ type: 'page.content_updated', entityId: 'p-9' });
    const signed = await api().sendRequest({ id: 'hs-2', method: 'POST', url: routeUrl('bootstrap'), headers: [], body: { kind: 'json', text: event }, target, sign: true });
    expect(signed.response.status).toBe(200);
    expect(JSON.stringify(signed)).not.toContain(token);

    // Revealed only when asked, for the handshake's capture alone.
    expect(await api().revealHandshakeToken(row.id)).toEqual({ ok: true, token, connector: 'notes', serving: true });
    expect(await api().revealHandshakeToken(signed.captureId!)).toEqual({ ok: false, reason: `capture #${signed.captureId} is not a notes subscription handshake the flow accepted, so it holds no token to reveal` });
    // A restart forgets a captured token (spec 3 §3): the capture still shows it, no longer served.
    const generation = h.states.filter((s) => s.integration === 'bootstrap').at(-1)!.generation;
    await api().restartIntegration('bootstrap');
    await h.waitForState('bootstrap', (s) => s.status === 'running' && s.generation > generation);
    expect(await api().revealHandshakeToken(row.id)).toEqual({ ok: true, token, connector: 'notes', serving: false });
  });
});

describe('the waterfall', () => {
  it('shows an outbound rest call under its step with method, URL, status and retries', async () => {
    const res = await fetch(routeUrl('proxy').replace('{id}', 'x9'));
    expect(res.status).toBe(200);
    const page = await waitFor(async () => {
      const p = await api().queryRuns({ flow: 'fetch-item', offset: 0, limit: 10 });
      return p.total > 0 ? p : undefined;
    });
    const run = (await api().runDetail(page.rows[0].runId))!;
    expect(run.steps[0]).toMatchObject({ block: 'rest', category: 'http' });
    expect(run.steps[0].calls).toEqual([
      expect.objectContaining({ kind: 'http', status: 200, detail: expect.objectContaining({ method: 'GET', attempts: 2, retries: 1, url: expect.stringMatching(/\/items\?id=x9$/) }) }),
    ]);
  });

  it('filters runs by flow, outcome, status and text', async () => {
    const byText = await api().queryRuns({ text: 'zoe', offset: 0, limit: 10 });
    expect(byText.rows.map((r) => r.flow)).toEqual(['price-order']);
    // The two refused webhooks are rejections answered 401, not flow failures.
    expect((await api().queryRuns({ status: '4xx', flow: 'notes-in', integration: 'notes', offset: 0, limit: 10 })).total).toBe(2);
    expect((await api().queryRuns({ flow: 'notes-in', integration: 'notes', outcome: 'failed', offset: 0, limit: 10 })).total).toBe(0);
    expect((await api().queryRuns({ status: '2xx', flow: 'notes-in', integration: 'notes', offset: 0, limit: 10 })).total).toBe(1);
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
