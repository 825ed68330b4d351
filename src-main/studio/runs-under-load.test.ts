import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CAPTURES } from './requests/capture-store.ts';
import { STUDIO_SATURATED } from './run-manager.ts';
import { startStudioHarness, type StudioHarness } from './testing/studio-harness.ts';

const ORDERS = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  price-order:
    source: {type: http, path: /orders/price, methods: [POST]}
    steps:
      - set: {body: '{"total": body.qty * 2}'}
`;

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const post = (url: string, qty: number) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ qty }) });

/** Resolves once the event loop has been idle for a while, so the next window is not saturated. */
const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Requests as fast as 20 keep-alive connections take them, from this thread — the runtime's too in
 * the studio — so the thread is saturated for as long as it lasts. Returns the answers' totals.
 */
async function flood(url: string, requests: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  const one = (qty: number) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve((JSON.parse(text) as { total: number }).total));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ qty }));
    });
  let next = 0;
  const totals: number[] = [];
  const worker = async () => {
    while (next < requests) {
      const qty = next++;
      totals[qty] = await one(qty);
    }
  };
  try {
    await Promise.all(Array.from({ length: 20 }, worker));
  } finally {
    agent.destroy();
  }
  return totals;
}

describe('a studio run under load', () => {
  it('answers every request, traces what the saturated thread allows, counts the rest in the feed, and traces all again once idle', async () => {
    harness = await startStudioHarness({ shop: { 'orders.yaml': ORDERS } });
    const h = harness;
    let notTraced = 0;
    const stop = h.backend.on('feed', (b) => (notTraced += b.runsNotTraced ?? 0));
    try {
      const url = (await h.backend.api.startIntegration('shop')).routes[0].url;
      const recorded = async () => (await h.backend.api.queryRuns({ offset: 0, limit: 1 })).total;
      const captured = async () => (await h.backend.api.listCaptures({ limit: 1 })).total;

      const requests = 3000;
      const totals = await flood(url, requests);
      expect(totals).toEqual(Array.from({ length: requests }, (_, qty) => qty * 2));
      // Every run is either recorded or counted, and a request's exchange shares its run's fate
      // (the capture store keeps the newest 2,000: a slow machine traces more of the flood).
      await expect.poll(async () => (await recorded()) + notTraced, { timeout: 10_000 }).toBe(requests);
      expect(notTraced).toBeGreaterThan(0);
      // The Logs panel says so, with the studio's own rate (FLOW_TRACE_SATURATED_RATE is unset here).
      const saturated = await h.waitForFeed((e) => e.kind === 'log' && e.log.msg.startsWith('the request thread is saturated'));
      expect(saturated.kind === 'log' && saturated.log.fields.rate).toBe(STUDIO_SATURATED.rate);
      expect(await captured()).toBe(Math.min(await recorded(), DEFAULT_MAX_CAPTURES));
      // A window opened afterwards learns the count from the Traces list, not from the feed it missed.
      const untraced = async () => (await h.backend.api.queryRuns({ offset: 0, limit: 1 })).notTraced;
      expect(await untraced()).toBe(notTraced);

      const before = { runs: await recorded(), shed: notTraced };
      await idle(300);
      expect(await (await post(url, 7)).json()).toEqual({ total: 14 });
      await expect.poll(recorded).toBe(before.runs + 1);
      expect(await captured()).toBe(Math.min(before.runs + 1, DEFAULT_MAX_CAPTURES));
      expect(notTraced).toBe(before.shed);
      expect(await untraced()).toBe(before.shed);
    } finally {
      stop();
    }
  });
});
