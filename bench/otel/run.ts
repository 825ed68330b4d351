/**
 * The cost of OpenTelemetry export on the path users run: `flow-studio run` of the order flow
 * (http source → set → response) with its embedded platform and every run traced, once shipping
 * traces to the platform alone and once also exporting them over OTLP/HTTP protobuf to a local
 * receiver, measured by wrk in interleaved rounds in one run. Target: export costs at most 15% of
 * the requests per second of tracing to the platform alone.
 *
 * usage: npm run bench:otel [-- --seconds 8 --warmup 2 --rounds 3]
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startPinned, type Started } from '../http/pinned-process.ts';
import { cpuSeconds } from '../http/proc-stats.ts';
import { ORDER, postScript, runWrk, type WrkResult } from '../http/wrk.ts';

const SERVER_CORE = 0;
const LOAD_CORE = 1;
const CONNECTIONS = 50;
const EXPECTED = JSON.stringify({ id: 'o-1042', customer: 'ana', total: 10 });

const { values: opts } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, warmup: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' } } });
const seconds = Number(opts.seconds);
const rounds = Number(opts.rounds);
const script = postScript();

const FLOW = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  price:
    source: {type: http, connector: web, path: /orders, methods: [POST]}
    steps:
      - set: {body: '{"id": body.id, "customer": body.customer, "total": body.price * body.qty}'}
`;

/** An OTLP/HTTP endpoint that takes every export and counts the bytes, as a collector's receiver would. */
async function startReceiver(): Promise<{ url: string; bytes: () => number; exports: () => number; close(): void }> {
  let bytes = 0;
  let exports = 0;
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => bytes, exports: () => exports, close: () => server.close() };
}

async function startRun(dir: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const clean: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const k of Object.keys(clean)) if (k.startsWith('FLOW_PLATFORM_API') || k === 'RUNTIME_SERVICES_MODULE') delete clean[k];
  const server = await startPinned(SERVER_CORE, process.execPath, [join('bin', 'flow-studio.js'), 'run', dir, '--data-dir', join(dir, `.platform-${Math.random().toString(36).slice(2)}`)], clean, /"msg":"http connector listening".*?"url":"(http:\/\/[^"]+)"/);
  const check = await fetch(`${server.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ORDER });
  const answer = JSON.stringify(await check.json());
  if (check.status !== 200 || answer !== EXPECTED) throw new Error(`wrong answer ${check.status} ${answer}`);
  await runWrk(`${server.url}/orders`, { core: LOAD_CORE, connections: CONNECTIONS, seconds: Number(opts.warmup), script });
  return server;
}

interface Measured extends WrkResult {
  cpuUs: number;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-otel-'));
writeFileSync(join(dir, 'orders.yaml'), FLOW);
const receiver = await startReceiver();
console.log(`OTLP export cost: flow-studio run, traced, ${rounds} interleaved rounds of ${seconds}s, wrk -t1 -c${CONNECTIONS} pinned to core ${LOAD_CORE}, servers on core ${SERVER_CORE}`);
const contenders: Array<{ name: string; server: Started; runs: Measured[] }> = [
  { name: 'traced to the platform', server: await startRun(dir, {}), runs: [] },
  {
    name: 'traced to the platform + OTLP export',
    server: await startRun(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'bench', OTEL_BSP_MAX_QUEUE_SIZE: '65536', OTEL_BSP_SCHEDULE_DELAY: '200' }),
    runs: [],
  },
  {
    name: 'traced to the platform + OTLP/JSON export',
    server: await startRun(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'bench', OTEL_BSP_MAX_QUEUE_SIZE: '65536', OTEL_BSP_SCHEDULE_DELAY: '200' }),
    runs: [],
  },
];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const c of contenders) {
      const pid = c.server.child.pid!;
      const before = cpuSeconds(pid);
      const w = await runWrk(`${c.server.url}/orders`, { core: LOAD_CORE, connections: CONNECTIONS, seconds, script });
      const m = { ...w, cpuUs: ((cpuSeconds(pid) - before) / w.requests) * 1e6 };
      c.runs.push(m);
      console.log(`  round ${round} ${c.name}: ${Math.round(m.rps)} req/s, p99 ${m.p99Ms.toFixed(2)} ms, ${m.cpuUs.toFixed(1)} µs CPU/request, ${m.errors} errors`);
    }
  }
} finally {
  for (const c of contenders) await c.server.stop();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [base, otel, json] = contenders.map((c) => ({ name: c.name, rps: median(c.runs.map((r) => r.rps)), p99: median(c.runs.map((r) => r.p99Ms)), cpu: median(c.runs.map((r) => r.cpuUs)) }));
console.log('\n| runtime | req/s | p99 ms | CPU µs/request | req/s vs platform tracing alone |');
console.log('|---|---:|---:|---:|---:|');
for (const r of [base, otel, json]) console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p99.toFixed(2)} | ${r.cpu.toFixed(1)} | ${((r.rps / base.rps) * 100).toFixed(1)}% |`);
const cost = 1 - otel.rps / base.rps;
console.log(`\nOTLP export costs ${(cost * 100).toFixed(1)}% of requests/s (target ≤ 15%: ${cost <= 0.15 ? 'met' : 'NOT met'}); receiver took ${receiver.exports()} exports, ${(receiver.bytes() / 1e6).toFixed(1)} MB`);
