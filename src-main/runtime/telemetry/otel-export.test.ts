import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './testing/otlp-receiver.ts';
import { otelConfigFromEnv } from './otel-config.ts';
import { traceSampler } from './trace-sampling.ts';

const SECRET = 'sk-live-9f8e7d6c5b4a';
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const definition = `
env:
  UPSTREAM_URL: {}
  API_KEY: {secret: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  upstream: {type: http-client, baseURL: '\${UPSTREAM_URL}'}
flows:
  orders:
    source: {type: http, connector: web, path: /orders, methods: [POST]}
    steps:
      - name: price
        rest: {connector: upstream, method: GET, path: /price, query: {key: 'env("API_KEY")'}}
      - queue-publish: {subject: shipments, body: '{"order": 7}'}
      - set: {body: '{"queued": true}'}
  ship:
    source: {type: queue, subject: shipments}
    steps:
      - name: refuse
        set: {body: '{"carrier": 1}[env("API_KEY")]'}
`;

interface Upstream {
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"price": 12}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `flow-studio run` on a folder with the definition, as a user runs it, exporting to the receiver. */
async function runWithExport(receiver: OtlpReceiver, upstream: Upstream, protocol: string): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const dir = mkdtempSync(join(tmpdir(), 'flow-otel-'));
  writeFileSync(join(dir, 'orders.yaml'), definition);
  const env: Record<string, string | undefined> = {
    ...process.env,
    UPSTREAM_URL: upstream.url,
    API_KEY: SECRET,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=blue',
    OTEL_SERVICE_NAME: 'orders-service',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  for (const k of Object.keys(env)) if (k.startsWith('FLOW_PLATFORM_API') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
  const child = spawn(process.execPath, ['bin/flow-studio.js', 'run', dir, '--data-dir', join(dir, '.platform')], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  cleanups.push(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 40_000;
  let base: string | undefined;
  while (Date.now() < deadline && !(base = /"msg":"http connector listening".*?"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1])) {
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!base) throw new Error(`flow-studio run did not start:\n${out}`);
  return { child, base, output: () => out };
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  expect(found.map((s) => s.name), `exactly one span named ${name}`).toEqual([name]);
  return found[0];
}

describe.each(['http/protobuf', 'http/json'])('OpenTelemetry export over OTLP %s', (protocol) => {
  it('exports one trace: the request, its run, steps, the upstream call and the queue consumer, joined to the caller', async () => {
    const receiver = await startOtlpReceiver();
    cleanups.push(() => receiver.close());
    const upstream = await startUpstream();
    cleanups.push(() => upstream.close());
    const run = await runWithExport(receiver, upstream, protocol);

    const res = await fetch(`${run.base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`, tracestate: 'vendor=abc' },
      body: '{"id": 7}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ queued: true });

    await waitFor('the consumer run and the server span', () => receiver.spans.some((s) => s.name === 'flow ship') && receiver.spans.some((s) => s.name === 'POST /orders'));
    const spans = receiver.spans;
    expect(new Set(spans.map((s) => s.encoding))).toEqual(new Set([protocol === 'http/json' ? 'json' : 'protobuf']));
    // Every span joined the caller's trace, and the export carried OTEL_EXPORTER_OTLP_HEADERS.
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([CALLER_TRACE]));
    expect(receiver.requests.every((h) => h['x-tenant'] === 'blue')).toBe(true);
    expect(spans[0].resource['service.name']).toBe('orders-service');
    // With a second core the spans were built and encoded on the export worker, off the request thread.
    expect(run.output()).toContain(`"thread":"${availableParallelism() >= 2 ? 'worker' : 'main'}"`);

    // The request and the run it started are one SERVER span: the http.* and the flow.* attributes.
    const ordersRun = one(spans, 'POST /orders');
    expect(ordersRun.kind).toBe(2);
    expect(ordersRun.parentSpanId).toBe(CALLER_SPAN);
    expect(ordersRun.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/orders', 'url.path': '/orders', 'http.response.status_code': 200 });
    expect(ordersRun.attributes).toMatchObject({ 'flow.name': 'orders', 'flow.outcome': 'completed' });
    // What every span of a runtime shares is said once, on the resource.
    expect(ordersRun.resource).toMatchObject({ 'flow.integration': expect.any(String), 'flow.deployment': 'local' });
    expect(ordersRun.attributes['flow.correlation_id']).toEqual(expect.any(String));
    expect(spans.filter((s) => s.name === 'flow orders')).toEqual([]);

    const price = one(spans, 'step price');
    expect(price.parentSpanId).toBe(ordersRun.spanId);
    expect(price.attributes).toMatchObject({ 'flow.block': 'rest', 'flow.step': 'flows.orders.steps[0]' });

    const call = one(spans, 'GET');
    expect(call.kind).toBe(3);
    expect(call.parentSpanId).toBe(price.spanId);
    expect(call.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200, 'server.address': '127.0.0.1' });
    // The upstream was told which span called it, and the caller's tracestate went along.
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0].traceparent).toBe(`00-${CALLER_TRACE}-${call.spanId}-01`);
    expect(upstream.seen[0].tracestate).toBe('vendor=abc');

    // The consumer's run joined the publisher's trace.
    const publish = one(spans, 'step queue-publish');
    expect(publish.parentSpanId).toBe(ordersRun.spanId);
    const send = one(spans, 'send shipments');
    expect(send.kind).toBe(4);
    expect(send.parentSpanId).toBe(publish.spanId);
    expect(send.attributes).toMatchObject({ 'messaging.destination.name': 'shipments', 'messaging.operation.type': 'send' });
    // The consumer's run is a child of the PRODUCER span, as the messaging conventions draw it.
    const shipRun = one(spans, 'flow ship');
    expect(shipRun.parentSpanId).toBe(send.spanId);
    expect(shipRun.status.code).toBe(2);

    // A failed step carries the error as its status and as an exception event.
    const refuse = one(spans, 'step refuse');
    expect(refuse.parentSpanId).toBe(shipRun.spanId);
    expect(refuse.status.code).toBe(2);
    expect(refuse.events.map((e) => e.name)).toEqual(['exception']);
    // The error names the missing key, which is the secret: it is masked.
    expect(String(refuse.events[0].attributes['exception.message'])).toContain('No such key');
    expect(refuse.status.message).toContain('No such key');

    // The secret went to the upstream in the query, but no attribute, status or event shows it.
    expect(call.attributes['url.full']).toEqual(expect.stringContaining('/price?key='));
    expect(JSON.stringify(spans)).not.toContain(SECRET);
  }, 90_000);
});

describe('OTEL_* configuration', () => {
  it('exports nothing without an endpoint, or when the SDK is disabled', () => {
    expect(otelConfigFromEnv({})).toBeUndefined();
    expect(otelConfigFromEnv({ OTEL_SERVICE_NAME: 'x' })).toBeUndefined();
    expect(otelConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(otelConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(otelConfigFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toMatchObject({ protocol: 'http/protobuf', sampler: 'parentbased_always_on' });
  });

  it('names what is wrong with a variable and falls back to the default rather than silently exporting nothing', () => {
    const c = otelConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_TRACES_SAMPLER: 'sometimes', OTEL_BSP_MAX_QUEUE_SIZE: 'lots' });
    expect(c?.protocol).toBe('http/protobuf');
    expect(c?.sampler).toBe('parentbased_always_on');
    expect(c?.warnings).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported (use http/protobuf or http/json); exporting with http/protobuf',
      'OTEL_TRACES_SAMPLER "sometimes" is not one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio; using parentbased_always_on',
      'OTEL_BSP_MAX_QUEUE_SIZE "lots" is not a whole number; using the default',
    ]);
  });

  it('samples by trace id ratio, and follows the caller with parentbased samplers', () => {
    const ratio = traceSampler({ sampler: 'traceidratio', ratio: 0.25 });
    let kept = 0;
    const ids = Array.from({ length: 4000 }, (_, i) => (i * 2654435761).toString(16).padStart(8, '0').repeat(4).slice(0, 32));
    for (const id of ids) if (ratio(id, undefined)) kept++;
    expect(kept / ids.length).toBeGreaterThan(0.2);
    expect(kept / ids.length).toBeLessThan(0.3);
    // The same trace id always gets the same answer, so a run's spans are kept or dropped together.
    expect(ids.every((id) => ratio(id, undefined) === ratio(id, true))).toBe(true);
    const parent = traceSampler({ sampler: 'parentbased_traceidratio', ratio: 0 });
    expect(parent(ids[0], true)).toBe(true);
    expect(parent(ids[0], false)).toBe(false);
    expect(parent(ids[0], undefined)).toBe(false);
    expect(traceSampler({ sampler: 'parentbased_always_on', ratio: 1 })(ids[0], false)).toBe(false);
  });
});
