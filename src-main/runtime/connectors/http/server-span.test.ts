import { afterEach, describe, expect, it } from 'vitest';
import { Runtime } from '../../core/runtime.ts';
import type { TraceRecord, TraceSink, TraceSpan } from '../../core/trace.ts';
import { registry } from '../../registry.ts';

const FLOW = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  orders:
    source: {type: http, path: /orders, methods: [POST]}
    steps:
      - set: {body: '{"id": body.id}'}
`;
const STREAM = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  progress:
    source: {type: http, path: /progress, methods: [GET], sse: {enabled: true, finalEvent: true}}
    steps:
      - sse-event: {event: progress, data: '{"percent": 50}'}
      - set: {body: '{"done": true}'}
`;
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const running: Runtime[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop(1_000);
});

/** A sink that keeps what it is given; `serverSpans` as a sink declares it. */
function recorder(serverSpans?: boolean): TraceSink & { events: TraceRecord[]; spans: TraceSpan[] } {
  const events: TraceRecord[] = [];
  const spans: TraceSpan[] = [];
  return { events, spans, serverSpans, emit: (e) => events.push(e), span: (s) => spans.push(s) };
}

/** Posts one order with the caller's traceparent to a runtime whose hub has `sinks`. */
async function postTraced(...sinks: Array<ReturnType<typeof recorder>>): Promise<void> {
  const runtime = Runtime.load([{ file: 'orders.yaml', text: FLOW }], { registry, env: {} });
  running.push(runtime);
  for (const s of sinks) runtime.traces.add(s);
  await runtime.start();
  const url = runtime.describe().connectors[0].details!.url as string;
  const res = await fetch(`${url}/orders?source=test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    body: '{"id": "o-1"}',
  });
  // The run ends before its answer is written and the server span is reported in the same turn
  // as the write; this client shares the event loop, so both are in by the time it reads.
  expect(await res.json()).toEqual({ id: 'o-1' });
}

describe("an http route's server span", () => {
  it('is built only for a sink that takes it; a studio-like sink gets its calls and the run joins the caller directly', async () => {
    const studio = recorder(false);
    await postTraced(studio);
    expect(studio.spans).toEqual([]);
    const run = studio.events.find((e) => e.kind === 'run')!;
    expect(run).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN, sampled: true });
  });

  it('is the run’s parent and the caller’s child where an exporter takes it, and never reaches a sink that declined it', async () => {
    const studio = recorder(false);
    const exporter = recorder();
    await postTraced(studio, exporter);
    expect(studio.spans).toEqual([]);
    const server = exporter.spans.find((s) => s.kind === 'server');
    expect(server).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN, status: 200, name: 'POST /orders' });
    // The path as requested without its query, as OpenTelemetry's url.path is.
    expect(server!.detail).toMatchObject({ method: 'POST', route: '/orders', path: '/orders' });
    const run = exporter.events.find((e) => e.kind === 'run')!;
    expect(run).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: server!.spanId });
    // Both sinks see the same run.
    expect(studio.events.find((e) => e.kind === 'run')!.spanId).toBe(run.spanId);
  });

  it('is not opened for an event stream, whose run joins the caller directly: no parent left unreported', async () => {
    const exporter = recorder();
    const runtime = Runtime.load([{ file: 'progress.yaml', text: STREAM }], { registry, env: {} });
    running.push(runtime);
    runtime.traces.add(exporter);
    await runtime.start();
    const url = runtime.describe().connectors[0].details!.url as string;
    const res = await fetch(`${url}/progress`, { headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toContain('event: progress');
    expect(exporter.spans.filter((s) => s.kind === 'server')).toEqual([]);
    const run = exporter.events.find((e) => e.kind === 'run')!;
    expect(run).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN, sampled: true });
  });
});
