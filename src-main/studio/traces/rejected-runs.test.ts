import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const webhook = `env:
  WEBHOOK_SECRET: {default: dev-only-webhook-secret-change-me!, secret: true}
connectors:
  web: {type: http, port: 0}
flows:
  receive-webhook:
    source: {type: http, path: '/webhooks/{sender}', methods: [POST], headers: [Authorization]}
    steps:
      - name: sender token
        jwt-verify: {secret: '\${WEBHOOK_SECRET}', issuer: webhook-sender}
      - set: {body: '{"received": true}'}
`;

const token = (issuer: string) =>
  new SignJWT({ sub: 'billing' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).sign(new TextEncoder().encode('dev-only-webhook-secret-change-me!'));

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a request a verification step turns away', () => {
  for (const listening of [false, true]) {
    it(`is listed "rejected" with its reason and what the token said against what was expected (${listening ? 'a window open' : 'no window open'})`, async () => {
      harness = await startStudioHarness({ hooks: { 'hooks.yaml': webhook } });
      if (!listening) harness.backend.on('feed', () => {})();
      const { routes } = await harness.backend.api.startIntegration('hooks');
      const url = routes[0].url.replace('{sender}', 'billing');
      const bad = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${await token('someone-else')}` }, body: '{}' });
      expect(bad.status).toBe(401);
      const good = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${await token('webhook-sender')}` }, body: '{}' });
      expect(good.status).toBe(200);

      const api = harness.backend.api;
      let page = await api.queryRuns({ offset: 0, limit: 10, outcome: 'rejected' });
      for (const deadline = Date.now() + 10_000; page.total === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        page = await api.queryRuns({ offset: 0, limit: 10, outcome: 'rejected' });
      }
      expect(page.rows).toHaveLength(1);
      const run = page.rows[0];
      expect(run).toMatchObject({ outcome: 'rejected', status: 401, rejection: { block: 'jwt-verify', step: 'flows.receive-webhook.steps[0]', reason: expect.stringMatching(/^invalid token: .*iss/) } });
      expect((await api.queryRuns({ offset: 0, limit: 10, outcome: 'completed' })).total).toBe(1);

      const detail = await api.runDetail(run.runId);
      expect(detail?.verification).toEqual({
        ok: false,
        reason: run.rejection!.reason,
        expected: 'iss webhook-sender · a valid signature, not expired',
        received: 'iss someone-else · alg HS256 · sub billing',
      });
      const capture = (await api.listCaptures({ limit: 10 })).rows.find((c) => c.runId === run.runId);
      expect(capture?.verification).toMatchObject({ ok: false, reason: run.rejection!.reason });
      // And Logs says so, linked to the run.
      const lines = await api.queryLogs({ limit: 10, runId: run.runId });
      expect(lines.map((l) => [l.log.level, l.log.msg])).toEqual([['warn', `request rejected by jwt-verify: ${run.rejection!.reason}`]]);
    });
  }
});

const orders = `connectors:
  web: {type: http, port: 0}
flows:
  receive-order:
    source: {type: http, path: /orders, methods: [POST], maxBodyBytes: 1024}
    steps:
      - set: {body: '{"received": true}'}
`;

describe('a request the http source refuses before any step runs', () => {
  it.each([
    ['a body that is not valid JSON', '{"id": 1,', 400, /^malformed JSON body: /],
    ['a body over maxBodyBytes', JSON.stringify({ pad: 'x'.repeat(2048) }), 413, /^request body is larger than maxBodyBytes \(1024 bytes\)$/],
  ])('is listed "rejected" with the status and the reason, linked to its request: %s', async (_what, body, status, reason) => {
    harness = await startStudioHarness({ shop: { 'orders.yaml': orders } });
    const { routes } = await harness.backend.api.startIntegration('shop');
    const refused = await fetch(routes[0].url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(status);
    const good = await fetch(routes[0].url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": 1}' });
    expect(good.status).toBe(200);

    const api = harness.backend.api;
    await expect.poll(async () => (await api.queryRuns({ offset: 0, limit: 10, outcome: 'rejected' })).rows).toHaveLength(1);
    const run = (await api.queryRuns({ offset: 0, limit: 10, outcome: 'rejected' })).rows[0];
    expect(run).toMatchObject({ flow: 'receive-order', outcome: 'rejected', steps: 0, rejection: { block: 'http', step: 'flows.receive-order.source', reason: expect.stringMatching(reason) } });
    await expect.poll(async () => (await api.queryRuns({ offset: 0, limit: 10, outcome: 'rejected' })).rows[0].status).toBe(status);
    // The good request is its own run, completed, as before.
    expect((await api.queryRuns({ offset: 0, limit: 10, outcome: 'completed' })).total).toBe(1);
    const lines = await api.queryLogs({ limit: 10, runId: run.runId });
    expect(lines.map((l) => [l.log.level, l.log.msg])).toEqual([['warn', `request rejected by http: ${run.rejection!.reason}`]]);
  });
});
