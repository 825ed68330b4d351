import { afterEach, describe, expect, it } from 'vitest';
import type { HttpExchangeRecord } from '../../core/exchange-hub.ts';
import { Runtime } from '../../core/runtime.ts';
import { TraceAdmission } from '../../core/trace-admission.ts';
import { TraceHub, type TraceRecord } from '../../core/trace.ts';
import { registry } from '../../registry.ts';

const FLOW = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  orders:
    source: {type: http, path: /orders, methods: [POST], correlationIdHeader: X-Correlation-Id}
    steps:
      - set: {body: '{"id": body.id}'}
  broken:
    source: {type: http, path: /broken, methods: [POST], correlationIdHeader: X-Correlation-Id}
    steps:
      - set: {body: '{"id": body.missing}'}
`;

const running: Runtime[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop(1_000);
});

/**
 * A runtime whose request thread's load and clock the test sets, watched as the studio watches
 * one: its trace events and the exchanges its server captures.
 */
async function watchedRuntime(saturatedRate: number) {
  const load = { busy: 0, now: 0 };
  const admission = new TraceAdmission({ meter: () => load.busy, now: () => load.now, windowMs: 100 });
  const runtime = Runtime.load([{ file: 'orders.yaml', text: FLOW }], { registry, env: {}, traces: new TraceHub(admission) });
  running.push(runtime);
  const events: TraceRecord[] = [];
  const exchanges: HttpExchangeRecord[] = [];
  runtime.traces.add({ emit: (e) => events.push(e) });
  runtime.observe({ exchange: (x) => exchanges.push(x) });
  await runtime.start();
  admission.saturatedRate = saturatedRate;
  const url = runtime.describe().connectors[0].details!.url as string;
  const post = async (path: string, id: string) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-correlation-id': id }, body: JSON.stringify({ id }) });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  /** Moves to the next window with this load behind it. */
  const window = (busy: number) => {
    load.now += 100;
    load.busy = busy;
  };
  return { admission, events, exchanges, post, window, runs: () => events.filter((e) => e.kind === 'run') };
}

describe('an http route while its request thread is saturated', () => {
  it('answers every request, and traces and captures at most the rate — the same requests', async () => {
    const r = await watchedRuntime(80);
    r.window(1);
    // 80 runs a second: a quarter second's worth, 20, at once (this clock does not move while posting).
    for (let i = 0; i < 30; i++) expect(await r.post('/orders', `o-${i}`)).toEqual({ status: 200, body: { id: `o-${i}` } });
    expect(r.runs()).toHaveLength(20);
    expect(r.exchanges).toHaveLength(20);
    expect(r.exchanges.map((x) => x.correlationId)).toEqual(r.runs().map((e) => e.correlationId));
    expect(r.admission.shed).toBe(10);
  });

  it('keeps the run record of a failed request it did not trace, without its steps', async () => {
    const r = await watchedRuntime(0);
    r.window(1);
    expect((await r.post('/orders', 'o-1')).status).toBe(200);
    const failed = await r.post('/broken', 'b-1');
    expect(failed.status).toBe(500);
    expect(r.events).toEqual([
      expect.objectContaining({ kind: 'run', flow: 'broken', correlationId: 'b-1', outcome: 'failed', error: expect.stringContaining('missing') }),
    ]);
    expect(r.events[0].traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(r.events[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(r.exchanges).toEqual([]);
    expect(r.admission.shed).toBe(1);
  });

  it('traces and captures every request again once two windows in a row had time to spare', async () => {
    const r = await watchedRuntime(0);
    r.window(1);
    await r.post('/orders', 'o-1');
    // One window with a gap in the load is not the load gone.
    r.window(0.3);
    await r.post('/orders', 'o-2');
    r.window(0.3);
    for (let i = 3; i <= 40; i++) await r.post('/orders', `o-${i}`);
    expect(r.runs().map((e) => e.correlationId)).toEqual(Array.from({ length: 38 }, (_, i) => `o-${i + 3}`));
    expect(r.events.filter((e) => e.kind === 'step')).toHaveLength(38);
    expect(r.exchanges).toHaveLength(38);
    expect(r.admission.shed).toBe(2);
  });
});
