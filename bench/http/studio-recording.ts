/**
 * What the studio spends recording each request of bench:http's flow, without HTTP or the flow
 * itself: the step and run records and the captured exchange of one request, as a runtime with
 * a live-feed subscriber hands them to the studio's stores (run store, captures, studio.db
 * history, run links, metrics, the feed with a subscriber serializing every batch as the web
 * transport does), in one process. Prints CPU microseconds a request, of all threads and of the
 * main thread alone (the history thread and the collector's helpers are the difference), and
 * the time in young-generation collections (wall time, helpers included).
 * A quick, steadier measure than bench:http's studio rows while changing the studio's recording;
 * profile it with `node --cpu-prof bin/run-ts.js bench/http/studio-recording.ts`.
 *
 * usage: node bin/run-ts.js bench/http/studio-recording.ts [requests, default 60000]
 *        (RECORDING_RUNS=<n>: keep n runs instead of the default retention)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as perf, PerformanceObserver } from 'node:perf_hooks';
import { SecretRedactor, TraceHub } from '../../src-main/runtime/index.ts';
import { ExchangeHub, type HttpExchangeRecord } from '../../src-main/runtime/core/exchange-hub.ts';
import { openStudioDb } from '../../src-main/studio/state/studio-db.ts';
import { HistorySettingsStore } from '../../src-main/studio/state/history-settings.ts';
import { startFireAndInspect } from '../../src-main/studio/requests/fire-and-inspect.ts';
import { LiveFeed } from '../../src-main/studio/live-feed.ts';
import { traceSource } from '../../src-main/studio/runtime-feed.ts';
import { RunLinks } from '../../src-main/studio/platform-views/run-links.ts';

const N = Number(process.argv[2] ?? 60_000);
const dir = mkdtempSync(join(tmpdir(), 'studio-recording-'));
const db = openStudioDb(dir);
const settings = new HistorySettingsStore(db);
if (process.env.RECORDING_RUNS) settings.update({ retention: { runs: { count: Number(process.env.RECORDING_RUNS) } } });
const feed = new LiveFeed();
const inspection = startFireAndInspect({
  workspace: { root: dir, definitionPaths: () => [] } as never,
  dataDir: dir,
  db,
  settings,
  routesOf: () => [],
  pushFeed: feed.push,
  emitProgress: () => {},
  emitCaptures: () => {},
  secretValueOf: async () => undefined,
});
// A studio runtime's redactor holds the platform token at least: every record is masked.
const redactor = new SecretRedactor();
redactor.add(`tok-${'x'.repeat(40)}`);
const traces = new TraceHub();
traces.redactor = redactor;
const exchanges = new ExchangeHub(traces.admission);
// The parts of a runtime the studio's recording reads.
const runtime = { traces, observe: (o: never) => exchanges.add(o), definition: { redactor } } as never;
const stop = inspection.watchRuntime('bench', runtime, { generation: 1, digest: '5199c1d1' });
feed.addSource(traceSource('bench', traces));
// The platform views' run links follow every runtime too.
const links = new RunLinks();
links.watch('bench', traces);
let feedBytes = 0;
// A window listens: snapshots are on, and each batch is serialized as the web transport does.
feed.subscribe((batch) => (feedBytes += JSON.stringify({ event: 'feed', payload: batch }).length));
inspection.setListening(true);

const ORDER = '{"id":"o-1042","customer":"ana","price":2.5,"qty":4}';
const ANSWER = '{"id":"o-1042","customer":"ana","total":10}';
// New objects for every request, as the runtime's snapshots are.
const order = (): Record<string, unknown> => ({ id: 'o-1042', customer: 'ana', price: 2.5, qty: 4 });
const answer = (): Record<string, unknown> => ({ id: 'o-1042', customer: 'ana', total: 10 });
const vars = (): Record<string, unknown> => ({ method: 'POST', query: {} });

/** One request as the studio learns of it: its step, its run (both with snapshots), its exchange. */
function request(i: number): void {
  const runId = `rpnkrr_${i}`;
  const correlationId = `z2n28i-mxcmwzme-${i}`;
  const traceId = '0d96751042a308cbff1011ade2d8f7b0';
  const now = Date.now();
  const common = { flow: 'price', correlationId, runId, startedAt: now, outcome: 'completed' as const, traceId };
  traces.emit({
    ...common,
    kind: 'step',
    step: 'flows.price.steps[0]',
    block: 'set',
    durationMs: 0.141,
    input: { body: order(), vars: vars() },
    output: { body: answer(), vars: vars() },
    spanId: '4d067ddee44268fa',
    parentSpanId: 'aaaaaaaaaaaaaaaa',
  });
  traces.emit({ ...common, kind: 'run', durationMs: 0.274, input: { body: order(), vars: vars() }, output: { body: answer(), vars: vars() }, spanId: 'aaaaaaaaaaaaaaaa' });
  const exchange: HttpExchangeRecord = {
    connector: 'http',
    flow: 'price',
    route: '/orders',
    method: 'POST',
    target: '/orders',
    requestHeaders: [
      ['Host', '127.0.0.1:35141'],
      ['Content-Type', 'application/json'],
      ['Content-Length', '52'],
    ],
    requestBody: Buffer.from(ORDER),
    correlationId,
    status: 200,
    responseHeaders: [
      ['content-type', 'application/json'],
      ['content-length', '43'],
    ],
    responseBody: Buffer.from(ANSWER),
    responseBytes: 43,
    startedAt: now,
    durationMs: 1.27,
    ended: 'finished',
  };
  exchanges.exchange(exchange);
}

/** Requests in batches of 100 with a turn of the event loop between, so the stores' timers run as under load. */
async function requests(from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i++) {
    request(i);
    if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** CPU microseconds of the calling thread (the main thread here). */
function threadCpuUs(): number {
  const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Time in young-generation collections: what the stores keep from each request is copied out of it. */
let scavengeMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === perf.NODE_PERFORMANCE_GC_MINOR) scavengeMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const WARM_UP = 20_000;
await requests(0, WARM_UP);
await new Promise((resolve) => setTimeout(resolve, 300));
const thread0 = threadCpuUs();
scavengeMs = 0;
const cpu0 = process.cpuUsage();
// Then what the last requests left (a history batch, a feed batch) is counted too.
await requests(WARM_UP, N);
await new Promise((resolve) => setTimeout(resolve, 600));
const cpu = process.cpuUsage(cpu0);
const thread = threadCpuUs() - thread0;
console.log(
  `${N} requests: ${((cpu.user + cpu.system) / N).toFixed(1)} µs CPU/request (all threads), ${(thread / N).toFixed(1)} µs on the main thread; ` +
    `young-generation collections ${((scavengeMs * 1000) / N).toFixed(1)} µs/request; feed ${(feedBytes / 1e6).toFixed(1)} MB; runs ${inspection.runs.size} captures ${inspection.captures.size}`,
);
stop();
await inspection.close();
feed.close();
db.close();
rmSync(dir, { recursive: true, force: true });
