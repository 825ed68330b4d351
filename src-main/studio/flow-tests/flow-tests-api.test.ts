import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../../shared/studio-api.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const ORDERS = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  price-order:
    source: {type: http, path: /orders/price, methods: [POST]}
    steps:
      - name: require items
        filter:
          condition: has(body.items) && size(body.items) > 0
          reject: {status: 400, body: '{"error": "an order needs at least one item"}'}
      - name: line totals
        set:
          vars: {lines: 'body.items.map(i, i.price * i.quantity)'}
      - name: answer
        set:
          body: '{"customer": body.customer, "lineTotals": vars.lines}'
`;

const CATALOG = (base: string) => `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  catalog: {type: http-client, baseURL: '${base}/v2'}
flows:
  price:
    source: {type: http, path: '/price/{id}', methods: [GET]}
    steps:
      - name: lookup
        rest: {connector: catalog, path: /items, query: {id: vars.id}}
      - name: answer
        set: {body: '{"id": vars.id, "price": body.price * 2.0}'}
`;

const ROUTING = (base: string) => `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  catalog: {type: http-client, baseURL: '${base}/v2'}
flows:
  route:
    source: {type: http, path: /route, methods: [POST]}
    steps:
      - name: classify
        set: {vars: {kind: 'body.kind'}}
      - name: by kind
        switch:
          cases:
            - when: 'vars.kind == "catalog"'
              steps:
                - name: lookup
                  rest: {connector: catalog, path: /items, query: {id: body.id}}
                - name: price it
                  set: {body: '{"price": body.price * 2.0}'}
          default:
            - name: free
              set: {body: '{"price": 0}'}
      - name: answer
        set: {body: '{"answer": body}'}
`;

let h: StudioHarness;
let upstream: Server;
/** The routing integration's own upstream (the one above is closed by a test), counting the calls it gets. */
let pricing: Server;
let pricingHits = 0;
beforeAll(async () => {
  pricing = createServer((_req, res) => {
    pricingHits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ price: 21 }));
  });
  await new Promise<void>((r) => pricing.listen(0, '127.0.0.1', r));
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ price: 21, from: req.url }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  h = await startStudioHarness({ orders: { 'orders.yaml': ORDERS }, catalog: { 'catalog.yaml': CATALOG(base) }, routing: { 'routing.yaml': ROUTING(`http://127.0.0.1:${(pricing.address() as AddressInfo).port}`) } });
  await h.backend.api.startIntegration('orders');
  await h.backend.api.startIntegration('catalog');
  await h.backend.api.startIntegration('routing');
});
afterAll(async () => {
  await h?.close();
  upstream?.close();
  pricing?.close();
});
const api = () => h.backend.api;
const url = () => h.states.filter((s) => s.integration === 'orders' && s.status === 'running').at(-1)!.routes[0].url;

async function sendOrder(): Promise<string> {
  const entry = await api().sendRequest({
    id: `req-${Math.random()}`,
    method: 'POST',
    url: url(),
    headers: [
      ['content-type', 'application/json'],
      ['authorization', 'Bearer sk-live-do-not-store'],
    ],
    body: { kind: 'json', text: JSON.stringify({ customer: 'ana', items: [{ price: 2.5, quantity: 4 }] }) },
    target: { integration: 'orders', flow: 'price-order', route: '/orders/price' },
  });
  // Names what came back when the link is missing: the status (0: no connection) and the capture.
  expect(entry.runId, `answer ${entry.response.status}, capture ${entry.captureId ?? 'none'}`).toBeDefined();
  return entry.runId!;
}

describe('a run saved as a test', () => {
  it('writes the input as a fixture (credentials redacted) and the observed response as the expectation, and the test passes', async () => {
    const runId = await sendOrder();
    const saved = await api().saveRunAsTest({ runId, name: 'prices an order', keep: ['status', 'body', 'outcome'] });
    expect(saved.file).toBe('price-order.test.yaml');
    const fixture = JSON.parse(readFileSync(join(h.workspaceDir, 'orders', 'fixtures', 'prices-an-order.json'), 'utf8'));
    expect(fixture).toMatchObject({ method: 'POST', path: '/orders/price', body: { customer: 'ana', items: [{ price: 2.5, quantity: 4 }] } });
    expect(fixture.headers.authorization).toBe('<redacted>');
    expect(readFileSync(join(h.workspaceDir, 'orders', 'price-order.test.yaml'), 'utf8')).not.toContain('sk-live');
    expect(saved.yaml).toContain('status: 200');

    const listed = await api().listFlowTests('orders');
    expect(listed).toEqual([{ file: 'price-order.test.yaml', problems: [], tests: [expect.objectContaining({ name: 'prices an order', flow: 'price-order' })] }]);
    const run = await api().runFlowTests({ integration: 'orders' });
    expect(run.results.map((r) => [r.name, r.passed, r.failures])).toEqual([['prices an order', true, []]]);
    expect(run.coverage.steps.filter((s) => s.hits > 0).map((s) => s.path)).toEqual(['flows.price-order.steps[0]', 'flows.price-order.steps[1]', 'flows.price-order.steps[2]']);
    expect(run.coverage.branches).toEqual([
      { flow: 'price-order', step: 'flows.price-order.steps[0]', label: 'pass', hits: 1 },
      { flow: 'price-order', step: 'flows.price-order.steps[0]', label: 'reject or drop', hits: 0 },
    ]);
    const stored = await api().runDetail(run.results[0].runId!);
    expect(stored!.summary.test).toBe('prices an order');

    await expect(api().saveRunAsTest({ runId, name: 'prices an order', keep: ['status'] })).rejects.toThrow('already has a test named "prices an order"');
  });

  it('fails with a readable diff and the diverging step once the flow changes', async () => {
    const file = join(h.workspaceDir, 'orders', 'orders.yaml');
    const serving = (): RunState | undefined => h.states.filter((s) => s.integration === 'orders' && s.status === 'running').at(-1);
    const before = serving()!;
    writeFileSync(file, readFileSync(file, 'utf8').replace('i.price * i.quantity', 'i.price * i.quantity * 2'));
    const run = await api().runFlowTests({ integration: 'orders', file: 'price-order.test.yaml', name: 'prices an order' });
    const [result] = run.results;
    expect(result.passed).toBe(false);
    expect(result.failures).toEqual([
      { what: 'response.body', message: 'differs at body.lineTotals[0]', diff: expect.stringContaining('-     10\n+     20'), step: 'flows.price-order.steps[2] (answer)' },
    ]);
    // The saves hot-reload orders, and the next tests send to it. The original goes back only
    // once the edit runs (a save that restores what runs reloads nothing), and they start once
    // orders serves the original again.
    await expect.poll(() => serving()!.serving?.digest !== before.serving?.digest, { timeout: 10_000 }).toBe(true);
    const edited = serving()!;
    writeFileSync(file, ORDERS);
    await expect.poll(() => serving()!.generation > edited.generation && serving()!.serving?.digest === before.serving?.digest, { timeout: 10_000 }).toBe(true);
  });
});

describe('a run with outbound calls saved as a test', () => {
  it('records the calls as stubs with their status and body, so the test and a stubbed re-run pass with the upstream gone', async () => {
    const url = h.states.filter((s) => s.integration === 'catalog' && s.status === 'running').at(-1)!.routes[0].url.replace('{id}', 'lamp');
    const entry = await api().sendRequest({ id: 'req-catalog', method: 'GET', url, headers: [], body: { kind: 'none' }, target: { integration: 'catalog', flow: 'price', route: '/price/{id}' } });
    expect(JSON.parse(entry.response.body.text!)).toEqual({ id: 'lamp', price: 42 });
    const saved = await api().saveRunAsTest({ runId: entry.runId!, name: 'prices from the catalog', keep: ['status', 'body', 'calls'] });
    const text = readFileSync(join(h.workspaceDir, 'catalog', saved.file), 'utf8');
    expect(text).toContain('path: /v2/items?id=lamp');
    expect(text).toMatch(/body:\n\s+price: 21\n\s+from: \/v2\/items\?id=lamp/);

    await new Promise<void>((r) => upstream.close(() => r()));
    const run = await api().runFlowTests({ integration: 'catalog' });
    expect(run.results.map((r) => [r.name, r.passed, r.failures])).toEqual([['prices from the catalog', true, []]]);

    const detail = (await api().runDetail(entry.runId!))!;
    const lookup = detail.steps.find((s) => s.name === 'lookup')!;
    const rerun = await api().rerunFromStep({ runId: entry.runId!, step: lookup.index, body: null, vars: { id: 'lamp' }, stubOutbound: true });
    expect(rerun.outcome).toBe('completed');
    expect((await api().runDetail(rerun.runId))!.output!.body).toEqual({ id: 'lamp', price: 42 });
  });
});

describe('re-running from a step with an edited message', () => {
  it('runs the rest of the flow from that step, links the new run to the original, and the comparison shows the change', async () => {
    const runId = await sendOrder();
    const detail = (await api().runDetail(runId))!;
    const middle = detail.steps.find((s) => s.name === 'line totals')!;
    const rerun = await api().rerunFromStep({
      runId,
      step: middle.index,
      body: { customer: 'bo', items: [{ price: 3, quantity: 3 }] },
      vars: (middle.input!.vars ?? {}) as Record<string, unknown>,
      stubOutbound: true,
    });
    expect(rerun).toMatchObject({ forkedFrom: runId, step: 'flows.price-order.steps[1]', outcome: 'completed' });
    const fork = (await api().runDetail(rerun.runId))!;
    expect(fork.summary).toMatchObject({ forkedFrom: runId, forkedAt: 'flows.price-order.steps[1]' });
    expect(fork.steps.map((s) => s.name)).toEqual(['line totals', 'answer']);
    expect(fork.output!.body).toEqual({ customer: 'bo', lineTotals: [9] });
    const compared = await api().compareRuns(runId, rerun.runId);
    const answer = compared.steps.find((s) => s.name === 'answer')!;
    expect(answer.same).toBe(false);
    expect(compared.bOutput!.body).toEqual({ customer: 'bo', lineTotals: [9] });
  });

  it('refuses a step the run does not have', async () => {
    const runId = await sendOrder();
    await expect(api().rerunFromStep({ runId, step: 99, body: null, vars: {}, stubOutbound: true })).rejects.toThrow(`run ${runId} has no step 99`);
  });
});

describe('re-running from a step inside a switch case', () => {
  async function routeRun(body: unknown): Promise<string> {
    const routeUrl = h.states.filter((s) => s.integration === 'routing' && s.status === 'running').at(-1)!.routes[0].url;
    const entry = await api().sendRequest({
      id: `req-${Math.random()}`,
      method: 'POST',
      url: routeUrl,
      headers: [['content-type', 'application/json']],
      body: { kind: 'json', text: JSON.stringify(body) },
      target: { integration: 'routing', flow: 'route', route: '/route' },
    });
    expect(entry.runId).toBeDefined();
    return entry.runId!;
  }

  it('runs the rest of the case with the edited message, then the rest of the flow, linked to the original', async () => {
    const runId = await routeRun({ kind: 'catalog', id: 'lamp' });
    const detail = (await api().runDetail(runId))!;
    const priceIt = detail.steps.find((s) => s.name === 'price it')!;
    expect(priceIt.step).toBe('flows.route.steps[1].switch.cases[0].steps[1]');
    const rerun = await api().rerunFromStep({ runId, step: priceIt.index, body: { price: 5 }, vars: priceIt.input!.vars as Record<string, unknown>, stubOutbound: true });
    expect(rerun).toMatchObject({ forkedFrom: runId, step: 'flows.route.steps[1].switch.cases[0].steps[1]', outcome: 'completed' });
    const fork = (await api().runDetail(rerun.runId))!;
    expect(fork.summary).toMatchObject({ forkedFrom: runId, forkedAt: 'flows.route.steps[1].switch.cases[0].steps[1]' });
    expect(fork.steps.map((s) => s.name)).toEqual(['by kind', 'price it', 'answer']);
    expect(fork.output!.body).toEqual({ answer: { price: 10 } });
    const compared = await api().compareRuns(runId, rerun.runId);
    expect(compared.bOutput!.body).toEqual({ answer: { price: 10 } });
  });

  it('answers the outbound call inside the case from the recording when asked, so the upstream is not called', async () => {
    const runId = await routeRun({ kind: 'catalog', id: 'lamp' });
    const detail = (await api().runDetail(runId))!;
    const lookup = detail.steps.find((s) => s.name === 'lookup')!;
    const before = pricingHits;
    const rerun = await api().rerunFromStep({ runId, step: lookup.index, body: { id: 'lamp' }, vars: lookup.input!.vars as Record<string, unknown>, stubOutbound: true });
    expect(rerun.outcome).toBe('completed');
    expect((await api().runDetail(rerun.runId))!.output!.body).toEqual({ answer: { price: 42 } });
    expect(pricingHits).toBe(before);
    const live = await api().rerunFromStep({ runId, step: lookup.index, body: { id: 'lamp' }, vars: lookup.input!.vars as Record<string, unknown>, stubOutbound: false });
    expect(live.outcome).toBe('completed');
    expect(pricingHits).toBe(before + 1);
  });
});
