/**
 * HTTP benchmark of what users run: the flow `http source → set → response` as `flow-studio run`
 * serves it (embedded platform, traced — at most 1000 runs a second while the load saturates it,
 * FLOW_TRACE_SATURATED_RATE's default; rows marked "every run traced" set it to `all`, and a line
 * under the table says what share each run traced), the same runtime shipping to a platform server
 * in another process (as deployed), the studio's run with a live-feed subscriber attached, and
 * the runtime alone with no platform, and the traced run also exporting OTLP to a local receiver
 * (OpenTelemetry's cost, target ≤ 15% of the traced run's req/s: on one core, and with a core to
 * spare for the export worker, as deployed); against bare node:http doing the same work, Benthos
 * (http_server → mapping → sync_response) and Node-RED (http in → change → http response).
 * Every contender's answer is checked equal first; then wrk (POST JSON, 50 connections) measures
 * them in interleaved rounds, and every ratio is the median of the rounds' ratios (bare node:http run
 * twice shows what equal servers read as). Servers run pinned to core 0 (all their processes) and the load
 * generator to core 1. Then SSE: 1,000 concurrent streams of 10 frames/s, with the server's CPU
 * and RSS.
 *
 * usage: npm run bench:http [-- --seconds 10 --warmup 10 --round-warmup 2 --rounds 5 --streams 1000 --no-node-red --no-benthos --no-sse
 *        --only bare,bareAgain,runtime,run,runAll,runAllFrom,otel,runSpare,otelSpare,runSpareAll,otelSpareAll,remote,studio,studioAll,studioAllFrom,benthos,red
 *        --retention-requests 1000000 --no-retention --at-once-rounds 3]
 *        (BENCH_STUDIO_FROM=<another checkout>: its studio too, every run traced, as studioAllFrom;
 *        BENCH_RUN_FROM=<another checkout>: its `flow-studio run`, every run traced, as runAllFrom)
 *
 * Then the target lines again with each contender loaded at the same time as bare node:http on
 * the server core (bench/http/at-once.ts): on a shared machine its speed moves within seconds,
 * and only servers measured over the same seconds see the same machine.
 *
 * Last, the data directory of `flow-studio run` after 1,000,000 traced requests with the default
 * retention (target ≤ 200 MB; bench/http/retention.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { buildBenthos, startBenthos } from './benthos.ts';
import { installNodeRed, startNodeRed } from './node-red.ts';
import { writeOrdersIntegration } from './order-flow.ts';
import { startOtlpSink } from './otlp-sink.ts';
import { measureAtOnce, type AtOnceRound, type AtOnceServer } from './at-once.ts';
import { measureRetention, notTracedIn } from './retention.ts';
import { startPinned, startWithSpareCore, stopChild, type Started } from './pinned-process.ts';
import { cpuSeconds, rssMiB, settle, threadCpuSeconds } from './proc-stats.ts';
import { bracketedRatio, formatRatio, medianOf, pairedRatio, summarize, verdict, type PairedRatio, type TargetDirection } from './paired-ratio.ts';
import { ORDER, postScript, runWrk, type WrkResult } from './wrk.ts';

/** Issue 53's targets for a run that traces every run however busy (FLOW_TRACE_SATURATED_RATE=all). */
const EVERY_RUN_TARGETS = { rps: 0.9, vsBenthos: 1.5, cpu: 1.15, p99: 1.3 } as const;

const SERVER_CORE = 0;
const LOAD_CORE = 1;
const CONNECTIONS = 50;
const EXPECTED = { id: 'o-1042', customer: 'ana', total: 10 };

const { values: opts } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '10' },
    'round-warmup': { type: 'string', default: '2' },
    streams: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    'no-node-red': { type: 'boolean', default: false },
    'no-benthos': { type: 'boolean', default: false },
    'no-sse': { type: 'boolean', default: false },
    'retention-requests': { type: 'string', default: '1000000' },
    'no-retention': { type: 'boolean', default: false },
    'at-once-rounds': { type: 'string', default: '3' },
    only: { type: 'string' },
  },
});
const seconds = Number(opts.seconds);
const warmup = Number(opts.warmup);
const roundWarmup = Number(opts['round-warmup']);
const streams = Number(opts.streams);
const rounds = Number(opts.rounds);
const tsRunner = [join('bin', 'run-ts.js')];
const script = postScript();

interface Measured extends WrkResult {
  /** Server CPU time (user + system) per request, in microseconds. */
  cpuUs: number;
  /** The same for the server's request thread alone (a Node server's main thread); NaN where that is not one thread (Benthos). */
  threadUs: number;
  /** Across the rounds: (slowest − fastest) / median req/s. Ratios between rows are no finer than this. */
  spread: number;
}

interface Row {
  name: string;
  /** The medians across rounds. */
  result?: Measured;
  /** Each round's measurement, in round order: ratios are taken round by round. */
  runs?: Measured[];
  note?: string;
}

interface Contender {
  name: string;
  server?: Started;
  runs: Measured[];
  note?: string;
  /** False where requests are not served by one thread (Go's scheduler spreads them). */
  requestThread?: boolean;
  /** Requests it answered: the check, the warm-up and every round. */
  answered: number;
}

/** The rows `--only` keeps (keys of NAMES); all without it. */
function wanted(name: string): boolean {
  if (opts.only === undefined) return true;
  const key = Object.entries(NAMES).find(([, n]) => n === name)?.[0];
  return key !== undefined && opts.only.split(',').includes(key);
}

/** Starts a server and checks it answers the order exactly as the others do. */
async function prepare(name: string, start: () => Promise<Started>, requestThread = true): Promise<Contender> {
  if (!wanted(name)) return { name, runs: [], note: 'skipped (--only)', answered: 0 };
  try {
    const server = await start();
    const check = await firstAnswer(`${server.url}/orders`);
    const answer: unknown = await check.json();
    // Equal as JSON values: Benthos orders keys differently, which no client can tell apart.
    if (check.status !== 200 || !isDeepStrictEqual(answer, EXPECTED)) {
      await server.stop();
      return { name, runs: [], note: `wrong answer ${check.status} ${JSON.stringify(answer)}`, answered: 0 };
    }
    process.stdout.write(`  ${name}: warm-up ${warmup}s… `);
    const warm = await runWrk(`${server.url}/orders`, { core: LOAD_CORE, connections: CONNECTIONS, seconds: warmup, script });
    console.log('ready');
    return { name, server, runs: [], requestThread, answered: 1 + warm.requests };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { name, runs: [], note: `${(err as Error).message.split('\n')[0]}${cause ? ` (${cause})` : ''}`, answered: 0 };
  }
}

/** POSTs the order, retrying for a few seconds: a server may log that it listens just before it does (Benthos). */
async function firstAnswer(url: string): Promise<Response> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ORDER });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Measures the contenders in interleaved rounds (A, B, C, A, B, C, …) and keeps each one's median,
 * so a burst of other load on the machine hits every contender alike rather than one of them.
 * While one is measured the others are stopped (SIGSTOP): they share its core, and an idle server
 * is not idle — a studio still storing the last round's traces took a third of the next
 * contender's core and tripled its p99. After its round a contender gets up to 5 s to finish the
 * work its requests left (queued traces, a live feed's backlog), counted in its CPU per request.
 */
async function measureRounds(contenders: Contender[]): Promise<Row[]> {
  for (let round = 1; round <= rounds; round++) {
    for (const c of contenders) {
      if (!c.server) continue;
      const pids = pidsOf(c);
      const cpu = (): number => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      // The serving process's main thread (the runtime's, where a platform server helps it).
      const thread = (): number => (c.requestThread === false ? NaN : threadCpuSeconds(pids[0]));
      signalOthers(contenders, c, 'SIGSTOP');
      try {
        // Unmeasured load first: the contender was stopped through the others' rounds, and its
        // first seconds back (timers due meanwhile, a collection begun) are no server's steady state.
        if (roundWarmup > 0) c.answered += (await runWrk(`${c.server.url}/orders`, { core: LOAD_CORE, connections: CONNECTIONS, seconds: roundWarmup, script })).requests;
        const cpuBefore = cpu();
        const threadBefore = thread();
        const w = await runWrk(`${c.server.url}/orders`, { core: LOAD_CORE, connections: CONNECTIONS, seconds, script });
        await settle(cpu);
        const r = { ...w, cpuUs: ((cpu() - cpuBefore) / w.requests) * 1e6, threadUs: ((thread() - threadBefore) / w.requests) * 1e6, spread: 0 };
        c.runs.push(r);
        c.answered += w.requests;
        const threadText = Number.isNaN(r.threadUs) ? '' : ` (request thread ${r.threadUs.toFixed(1)})`;
        console.log(`  round ${round} ${c.name}: ${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.cpuUs.toFixed(1)} µs CPU/request${threadText}`);
      } finally {
        signalOthers(contenders, c, 'SIGCONT');
      }
    }
  }
  return contenders.map((c) => (c.runs.length ? { name: c.name, result: median(c.runs), runs: c.runs } : { name: c.name, note: c.note }));
}

function pidsOf(c: Contender): number[] {
  return c.server ? [c.server.child, ...(c.server.helpers ?? [])].flatMap((p) => (p.pid === undefined ? [] : [p.pid])) : [];
}

/** Stops or continues every contender's processes but `current`'s. */
function signalOthers(contenders: Contender[], current: Contender, signal: 'SIGSTOP' | 'SIGCONT'): void {
  for (const other of contenders) if (other !== current) signalContender(other, signal);
}

function signalContender(c: Contender, signal: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of pidsOf(c)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already: nothing to stop or continue.
    }
  }
}

function median(runs: Measured[]): Measured {
  const mid = (key: (r: Measured) => number): number => medianOf(runs.map(key));
  return {
    rps: mid((r) => r.rps),
    requests: runs.reduce((a, r) => a + r.requests, 0),
    p50Ms: mid((r) => r.p50Ms),
    p99Ms: mid((r) => r.p99Ms),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    cpuUs: mid((r) => r.cpuUs),
    threadUs: mid((r) => r.threadUs),
    spread: (Math.max(...runs.map((r) => r.rps)) - Math.min(...runs.map((r) => r.rps))) / mid((r) => r.rps),
  };
}

/** Another checkout whose studio runs beside this one's (BENCH_STUDIO_FROM). */
const studioFrom = process.env.BENCH_STUDIO_FROM;
/** Another checkout whose `flow-studio run` runs beside this one's, every run traced (BENCH_RUN_FROM). */
const runFrom = process.env.BENCH_RUN_FROM;

const NAMES = {
  bare: 'bare node:http',
  bareAgain: 'bare node:http again (a second process: the noise floor)',
  runtime: 'runtime alone (no platform, nothing traced)',
  run: 'flow-studio run (embedded platform, traced)',
  runAll: 'same, every run traced however busy (FLOW_TRACE_SATURATED_RATE=all)',
  runAllFrom: 'same, the build in BENCH_RUN_FROM (a change weighed in one run)',
  remote: 'flow-studio run → platform in another process',
  studio: 'studio run + live-feed subscriber',
  studioAll: 'studio run + live-feed subscriber, every run traced however busy',
  studioAllFrom: 'same, the build in BENCH_STUDIO_FROM (a change weighed in one run)',
  otel: 'flow-studio run, traced + OTLP export',
  runSpare: 'flow-studio run, traced; its other threads may use core 1',
  otelSpare: 'same + OTLP export (export worker may use core 1)',
  runSpareAll: 'flow-studio run, every run traced however busy; other threads may use core 1',
  otelSpareAll: 'same, every run also exported over OTLP',
  benthos: 'Benthos 4.60',
  red: 'Node-RED',
} as const;

function printTable(rows: Row[]): void {
  const runsOf = (name: string): Measured[] | undefined => rows.find((r) => r.name === name)?.runs;
  const of = (name: string): Measured | undefined => rows.find((r) => r.name === name)?.result;
  // Every ratio is taken round by round and its median kept (paired-ratio.ts), with its range.
  const vs = (a: Measured[] | undefined, b: Measured[] | undefined, key: (m: Measured) => number): PairedRatio | undefined => (a && b ? pairedRatio(a, b, key) : undefined);
  const rps = (m: Measured): number => m.rps;
  const cpuUs = (m: Measured): number => m.cpuUs;
  const p99Ms = (m: Measured): number => m.p99Ms;
  const bare = runsOf(NAMES.bare);
  const again = runsOf(NAMES.bareAgain);
  // Against bare node:http as read before and after the traced run in the same round (the
  // geometric mean of the two), so a drift of the machine's speed across the round cancels.
  const vsBare = (a: Measured[] | undefined, key: (m: Measured) => number): PairedRatio | undefined => (a && bare ? bracketedRatio(a, bare, again, key) : undefined);
  const benthos = runsOf(NAMES.benthos);
  console.log('\n| server | req/s | spread | p50 ms | p99 ms | errors | CPU µs/request | request thread µs/request | req/s vs bare | CPU vs bare | p99 vs bare | req/s vs Benthos |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    if (!r.result || !r.runs) {
      console.log(`| ${r.name} | — | — | — | — | — | — | — | — | — | — | ${r.note} |`);
      continue;
    }
    const x = r.result;
    const spread = `${Math.round(x.spread * 100)}%`;
    const thread = Number.isNaN(x.threadUs) ? '—' : x.threadUs.toFixed(1);
    const cells = [formatRatio(vsBare(r.runs, rps)), formatRatio(vsBare(r.runs, cpuUs), '×'), formatRatio(vsBare(r.runs, p99Ms), '×'), formatRatio(vs(r.runs, benthos, rps))];
    console.log(`| ${r.name} | ${Math.round(x.rps)} | ${spread} | ${x.p50Ms.toFixed(2)} | ${x.p99Ms.toFixed(2)} | ${x.errors} | ${x.cpuUs.toFixed(1)} | ${thread} | ${cells.join(' | ')} |`);
  }
  const run = runsOf(NAMES.run);
  const studio = runsOf(NAMES.studio);
  if (bare) {
    console.log('\n| target | measured: median of the rounds\' ratios (range) | target | |\n|---|---:|---:|---|');
    // Each verdict is weighed against this run's noise floor for the same measure (bare node:http
    // measured twice): a margin smaller than the floor's distance from 1.00 decides nothing.
    const floorOf = (key: (m: Measured) => number): PairedRatio | undefined => vs(again, bare, key);
    const line = (what: string, value: PairedRatio | undefined, target: number, direction: TargetDirection, key: (m: Measured) => number = rps, unit = ''): void =>
      targetLine(what, value, target, direction, floorOf(key), unit);
    line('flow-studio run, traced: req/s vs bare', vsBare(run, rps), 0.8, 'at least');
    line('same vs Benthos', vs(run, benthos, rps), 1.2, 'at least');
    line('server CPU µs/request vs bare', vsBare(run, cpuUs), 1.3, 'at most', cpuUs, '×');
    line('p99 vs bare p99', vsBare(run, p99Ms), 2, 'at most', p99Ms, '×');
    line('studio run with live feed, req/s vs bare', vsBare(studio, rps), 0.7, 'at least');
    // Issue 53: every run traced, whatever the load, nearly free — `flow-studio run` and the
    // studio's run with the live feed attached, against the same targets.
    const everyRunRows = [['flow-studio run', runsOf(NAMES.runAll)], ['studio run + live feed', runsOf(NAMES.studioAll)]] as Array<[string, ReturnType<typeof runsOf>]>;
    if (runFrom) everyRunRows.splice(1, 0, [`flow-studio run, ${runFrom}`, runsOf(NAMES.runAllFrom)]);
    if (studioFrom) everyRunRows.push([`studio run + live feed, ${studioFrom}`, runsOf(NAMES.studioAllFrom)]);
    for (const [who, runs] of everyRunRows) {
      line(`${who}, every run traced: req/s vs bare`, vsBare(runs, rps), EVERY_RUN_TARGETS.rps, 'at least');
      line('same vs Benthos', vs(runs, benthos, rps), EVERY_RUN_TARGETS.vsBenthos, 'at least');
      line('same, server CPU µs/request vs bare', vsBare(runs, cpuUs), EVERY_RUN_TARGETS.cpu, 'at most', cpuUs, '×');
      line('same, p99 vs bare p99', vsBare(runs, p99Ms), EVERY_RUN_TARGETS.p99, 'at most', p99Ms, '×');
    }
    // The same server twice: how far apart two equal contenders read in this run, the floors
    // the verdicts above were weighed against.
    const floor = (what: string, key: (m: Measured) => number): void => {
      const value = floorOf(key);
      console.log(`| noise floor: bare node:http again vs bare, ${what} | ${value ? formatRatio(value) : '—'} | (1.00 if this machine were steady) | ${value ? '' : 'not measured'} |`);
    };
    floor('req/s', rps);
    floor('CPU', cpuUs);
    floor('p99', p99Ms);
    const otel = runsOf(NAMES.otel);
    const runSpare = runsOf(NAMES.runSpare);
    const otelSpare = runsOf(NAMES.otelSpare);
    line('OTLP export, a core to spare: req/s vs traced run alike', vs(otelSpare, runSpare, rps), 0.85, 'at least');
    line('OTLP export, one core: req/s vs traced run alone (information)', vs(otel, run, rps), 0.85, 'at least');
    // What export costs the request thread, read from its own CPU: wrk shares the spare core with
    // the export worker, so the req/s ratio above moves with how the two are scheduled.
    const threadLine = (what: string, a: string, b: string): void => {
      const value = vs(runsOf(a), runsOf(b), (m) => m.threadUs);
      const [ma, mb] = [of(a), of(b)];
      if (value === undefined || !ma || !mb) console.log(`| ${what} | — | (information) | not measured |`);
      else console.log(`| ${what} | ${formatRatio(value, '×')}; medians ${ma.threadUs.toFixed(1)} against ${mb.threadUs.toFixed(1)} µs | (information) | |`);
    };
    threadLine('OTLP export, a core to spare: request thread CPU vs traced run alike', NAMES.otelSpare, NAMES.runSpare);
    // Export's cost per run, with no run left untraced: both rows trace every run, a core to spare.
    line('OTLP export of every run, a core to spare: req/s vs every run traced alike (information)', vs(runsOf(NAMES.otelSpareAll), runsOf(NAMES.runSpareAll), rps), 0.85, 'at least');
    threadLine('the same: request thread CPU', NAMES.otelSpareAll, NAMES.runSpareAll);
    // What tracing itself costs, against the same runtime tracing nothing: the targets above also
    // carry the engine's own cost against bare node:http, which differs from machine to machine.
    const alone = runsOf(NAMES.runtime);
    const aloneLine = (what: string, name: string): void => {
      const value = vs(runsOf(name), alone, rps);
      const [row, aloneMedian] = [of(name), of(NAMES.runtime)];
      if (!value || !row || !aloneMedian) console.log(`| ${what} | — | (information) | not measured |`);
      else console.log(`| ${what} | ${formatRatio(value)}; ${(row.cpuUs - aloneMedian.cpuUs).toFixed(1)} µs CPU a request more | (information) | |`);
    };
    aloneLine("tracing's own cost: traced run, req/s vs the runtime alone", NAMES.run);
    aloneLine('the same, every run traced', NAMES.runAll);
    aloneLine('studio run with live feed, req/s vs the runtime alone', NAMES.studio);
    const noisy = rows.filter((r) => r.result && r.result.spread > 0.1).map((r) => `${r.name} (${Math.round(r.result!.spread * 100)}%)`);
    if (noisy.length > 0) console.log(`(req/s varied by more than 10% across rounds for: ${noisy.join('; ')}: the machine's speed moved; each ratio above is taken within a round, where it moved less)`);
  }
  if (runsOf(NAMES.bareAgain)?.length) console.log('(vs bare: against the geometric mean of the round\'s two bare node:http readings, taken before and after the traced run; the noise floor lines compare the two)');
  console.log("(CPU: the server's own CPU time per request, all its processes, read from /proc; it stays meaningful when other work shares the machine)");
}

/**
 * How many runs each of our servers left untraced while saturated (`flow-studio run` says so in
 * its "runtime stopped" log line, the studio's bench server in its last line), against the
 * requests it answered: what its row's tracing actually recorded.
 */
async function printNotTraced(contenders: Contender[]): Promise<void> {
  const parts: string[] = [];
  for (const c of contenders) {
    if (!c.server || c.answered === 0) continue;
    await c.server.stop();
    const output = c.server.output();
    if (!/"msg":"runtime stopped"|studio stopped/.test(output)) continue;
    const shed = notTracedIn(output);
    parts.push(`${c.name}: ${((100 * (c.answered - shed)) / c.answered).toFixed(1)}% traced (${c.answered - shed} of ${c.answered})`);
  }
  if (parts.length > 0) console.log(`(runs traced while saturated, FLOW_TRACE_SATURATED_RATE unset: 1000/s, the studio 250/s — ${parts.join('; ')})`);
}

/** One row of a target table: the ratio, its target, and the verdict weighed against `floor`, the same measure of bare against bare. */
function targetLine(what: string, value: PairedRatio | undefined, target: number, direction: TargetDirection, floor: PairedRatio | undefined, unit = ''): void {
  const shown = `${direction === 'at least' ? '≥' : '≤'} ${target.toFixed(2)}${unit}`;
  if (value === undefined) console.log(`| ${what} | — | ${shown} | not measured |`);
  else console.log(`| ${what} | ${formatRatio(value, unit)} | ${shown} | ${verdict(value, target, direction, floor)} |`);
}

/** The target lines measured with each contender and bare node:http loaded at once (at-once.ts). */
async function atOnceTargets(contenders: Contender[]): Promise<void> {
  const atOnceRounds = Number(opts['at-once-rounds']);
  // One object per running contender: the pair is told from the others by identity.
  const all = contenders.flatMap((c): AtOnceServer[] => {
    if (!c.server) return [];
    const pids = pidsOf(c);
    return [{ name: c.name, url: `${c.server.url}/orders`, cpu: () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0), signal: (signal) => signalContender(c, signal), answered: (n) => (c.answered += n) }];
  });
  const serverOf = (name: string): AtOnceServer | undefined => all.find((s) => s.name === name);
  const baseline = serverOf(NAMES.bare);
  const floorServer = serverOf(NAMES.bareAgain);
  if (atOnceRounds <= 0 || !baseline || !floorServer) return;
  // The runtime alone too: what of the traced run's distance from bare is the engine's, what tracing's.
  const measured = [floorServer, serverOf(NAMES.runtime), serverOf(NAMES.run), serverOf(NAMES.runAll), serverOf(NAMES.runAllFrom), serverOf(NAMES.studio), serverOf(NAMES.studioAll), serverOf(NAMES.studioAllFrom), serverOf(NAMES.benthos)].filter((s): s is AtOnceServer => s !== undefined);
  const half = Math.round(CONNECTIONS / 2);
  console.log(`\nLoaded at once with bare node:http: both on core ${SERVER_CORE}, a wrk -t1 -c${half} each on core ${LOAD_CORE}, ${atOnceRounds} rounds of ${seconds}s each after ${roundWarmup}s unmeasured`);
  const results = await measureAtOnce(baseline, measured, all, {
    rounds: atOnceRounds,
    seconds,
    warmupSeconds: roundWarmup,
    load: (url, s) => runWrk(url, { core: LOAD_CORE, connections: half, seconds: s, script }),
    settle,
    progress: (round, name, r) =>
      console.log(
        `  round ${round} ${name}: ${Math.round(r.contender.rps)} against bare's ${Math.round(r.baseline.rps)} req/s, p99 ${r.contender.p99Ms.toFixed(2)} against ${r.baseline.p99Ms.toFixed(2)} ms, ${r.contender.cpuUs.toFixed(1)} against ${r.baseline.cpuUs.toFixed(1)} µs CPU/request${errorsText(r)}`,
      ),
  });
  const of = (name: string, key: (r: AtOnceRound) => number): PairedRatio | undefined => {
    return summarize((results.get(name) ?? []).map(key));
  };
  const rpsRatio = (r: AtOnceRound): number => r.contender.rps / r.baseline.rps;
  const cpuRatio = (r: AtOnceRound): number => r.contender.cpuUs / r.baseline.cpuUs;
  const p99Ratio = (r: AtOnceRound): number => r.contender.p99Ms / r.baseline.p99Ms;
  // Against Benthos: each round's two ratios to bare, the traced run's over Benthos's.
  const run = results.get(NAMES.run);
  const benthos = results.get(NAMES.benthos);
  const vsBenthos = run?.length && benthos?.length ? pairedRatio(run, benthos, rpsRatio) : undefined;
  console.log("\n| target, loaded at once with bare node:http | measured: median of the rounds' ratios (range) | target | |\n|---|---:|---:|---|");
  const line = (what: string, value: PairedRatio | undefined, target: number, direction: TargetDirection, key: (r: AtOnceRound) => number, unit = ''): void =>
    targetLine(what, value, target, direction, of(NAMES.bareAgain, key), unit);
  line('flow-studio run, traced: req/s vs bare', of(NAMES.run, rpsRatio), 0.8, 'at least', rpsRatio);
  line('same vs Benthos', vsBenthos, 1.2, 'at least', rpsRatio);
  line('server CPU µs/request vs bare', of(NAMES.run, cpuRatio), 1.3, 'at most', cpuRatio, '×');
  line('p99 vs bare p99', of(NAMES.run, p99Ratio), 2, 'at most', p99Ratio, '×');
  line('studio run with live feed, req/s vs bare', of(NAMES.studio, rpsRatio), 0.7, 'at least', rpsRatio);
  const everyRunRows: Array<[string, string]> = [['flow-studio run', NAMES.runAll], ['studio run + live feed', NAMES.studioAll]];
  if (runFrom) everyRunRows.splice(1, 0, [`flow-studio run, ${runFrom}`, NAMES.runAllFrom]);
  if (studioFrom) everyRunRows.push([`studio run + live feed, ${studioFrom}`, NAMES.studioAllFrom]);
  for (const [who, name] of everyRunRows) {
    const rows = results.get(name);
    line(`${who}, every run traced: req/s vs bare`, of(name, rpsRatio), EVERY_RUN_TARGETS.rps, 'at least', rpsRatio);
    line('same vs Benthos', rows?.length && benthos?.length ? pairedRatio(rows, benthos, rpsRatio) : undefined, EVERY_RUN_TARGETS.vsBenthos, 'at least', rpsRatio);
    line('same, server CPU µs/request vs bare', of(name, cpuRatio), EVERY_RUN_TARGETS.cpu, 'at most', cpuRatio, '×');
    line('same, p99 vs bare p99', of(name, p99Ratio), EVERY_RUN_TARGETS.p99, 'at most', p99Ratio, '×');
  }
  // Where the traced run's distance from bare comes from: the engine alone (its request path
  // against bare's; when responses were still written one by one, a wake-up of the client per
  // response made it 0.78-0.83 here, shared/end-of-turn.ts), then tracing on top.
  const alone = results.get(NAMES.runtime);
  const info = (what: string, value: PairedRatio | undefined, meaning = '(information)'): void => console.log(`| ${what} | ${value ? formatRatio(value) : '—'} | ${meaning} | ${value ? '' : 'not measured'} |`);
  info('runtime alone (no platform, nothing traced), req/s vs bare', of(NAMES.runtime, rpsRatio));
  info("tracing's own cost: traced run, req/s vs the runtime alone", run?.length && alone?.length ? pairedRatio(run, alone, rpsRatio) : undefined);
  for (const [what, key] of [['req/s', rpsRatio], ['CPU', cpuRatio], ['p99', p99Ratio]] as const) {
    info(`noise floor: bare node:http again vs bare at once, ${what}`, of(NAMES.bareAgain, key), '(1.00 if this machine were steady)');
  }
}

function errorsText(r: AtOnceRound): string {
  const errors = r.baseline.errors + r.contender.errors;
  return errors > 0 ? `, ${errors} errors` : '';
}

const RETENTION_TARGET_MB = 200;

/** The data directory after a long traced load, against its target. */
async function retention(start: () => Promise<Started>, dataDir: string): Promise<void> {
  const requests = Number(opts['retention-requests']);
  console.log(`
Retention: flow-studio run, every run traced (FLOW_TRACE_SATURATED_RATE=all), default retention, wrk until ${requests.toLocaleString('en-US')} requests are answered`);
  let shown = 0;
  const r = await measureRetention({
    start,
    dataDir,
    requests,
    loadCore: LOAD_CORE,
    connections: CONNECTIONS,
    script,
    progress: (answered) => {
      if (answered - shown < requests / 5) return;
      shown = answered;
      process.stdout.write(`  ${Math.round((100 * answered) / requests)}%…`);
    },
  });
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
  const worst = Math.max(r.runningBytes, r.stoppedBytes) / 1e6;
  console.log(`
| requests answered | errors | traced | seconds | data directory, running → stopped | trace records kept | log records kept |`);
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  console.log(`| ${r.requests} | ${r.errors} | ${r.requests - r.notTraced} | ${r.seconds.toFixed(0)} | ${mb(r.runningBytes)} → ${mb(r.stoppedBytes)} MB | ${r.traceRecords} | ${r.logRecords} |`);
  const traced = r.requests - r.notTraced >= requests && r.errors === 0;
  const verdictText = !traced ? 'not measured: fewer runs traced than asked, or errors' : worst <= RETENTION_TARGET_MB ? 'met' : 'NOT met';
  console.log(`| target | measured | target | |\n|---|---:|---:|---|\n| data directory after ${requests.toLocaleString('en-US')} traced requests | ${worst.toFixed(1)} MB | ≤ ${RETENTION_TARGET_MB} MB | ${verdictText} |`);
}

async function sseLoad(): Promise<void> {
  const windowSeconds = 5;
  console.log(`\nSSE: ${streams} concurrent streams × 10 frames/s, measured over ${windowSeconds}s once all are open`);
  const server = await startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'flow-server.ts'), '--sse', String(windowSeconds + 25)]);
  const pid = server.child.pid!;
  try {
    const rssIdle = rssMiB(pid);
    const client = spawn('taskset', ['-c', String(LOAD_CORE), process.execPath, ...tsRunner, join('bench', 'http', 'sse-load-client.ts'), `${server.url}/ticks`, String(streams), String(windowSeconds)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let cpu0 = 0;
    let t0 = 0;
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(pid))), 250);
    client.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (t0 === 0 && out.includes('connected')) {
        cpu0 = cpuSeconds(pid);
        t0 = Date.now();
      }
    });
    await new Promise<void>((resolve) => client.once('exit', () => resolve()));
    clearInterval(sampler);
    const cpu = t0 ? (cpuSeconds(pid) - cpu0) / ((Date.now() - t0) / 1000) : NaN;
    const m = /window (\d+) (\d+) errors (\d+)/.exec(out);
    if (!m) {
      console.log(`  SSE load did not complete: ${out.trim()}`);
      return;
    }
    const framesPerSecond = Number(m[1]) / (Number(m[2]) / 1000);
    console.log('| streams | frames/s delivered | expected | server CPU (one core) | server RSS idle → peak | client errors |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${streams} | ${Math.round(framesPerSecond)} | ${streams * 10} | ${(cpu * 100).toFixed(1)}% | ${rssIdle.toFixed(0)} → ${peakRss.toFixed(0)} MiB | ${m[3]} |`,
    );
  } finally {
    await stopChild(server.child);
  }
}

console.log(
  `HTTP bench: wrk -t1 -c${CONNECTIONS} -d${seconds}s POST ${ORDER}, warm-up ${warmup}s, ${rounds} interleaved rounds each after ${roundWarmup}s unmeasured (medians; ratios taken within each round); servers on core ${SERVER_CORE}, wrk on core ${LOAD_CORE}; node ${process.version}`,
);
const [loadAvg] = loadavg();
if (loadAvg > 0.5) console.log(`  note: load average is ${loadAvg.toFixed(2)} before starting; other work on this machine skews absolute numbers (ratios are measured side by side)`);
const contenders: Contender[] = [];
const work = mkdtempSync(join(tmpdir(), 'bench-http-'));
const integration = writeOrdersIntegration(join(work, 'workspace'));
const cli = [join('bin', 'flow-studio.js')];
const connectorReady = /connector http ready","url":"([^"]+)"/;
try {
  contenders.push(await prepare(NAMES.bare, () => startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'bare-server.ts')])));
  contenders.push(await prepare(NAMES.runtime, () => startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'flow-server.ts')])));
  // `flow-studio run` of the bench integration with its own data directory: pinned to core 0, or
  // with its other threads free to use core 1 too.
  const flowStudioRun = (dataDir: string, env: NodeJS.ProcessEnv, spareCore = false) => () => {
    const args = [...cli, 'run', integration, '--data-dir', join(work, dataDir)];
    return spareCore ? startWithSpareCore(SERVER_CORE, LOAD_CORE, process.execPath, args, env, connectorReady) : startPinned(SERVER_CORE, process.execPath, args, env, connectorReady);
  };
  const everyRun = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...env, FLOW_TRACE_SATURATED_RATE: 'all' });
  contenders.push(await prepare(NAMES.run, flowStudioRun('run-data', process.env)));
  // The same server as the first row, measured where the traced run's ratio is taken: what two
  // equal servers read as in this run (an A/A comparison), so a ratio near its target is judged
  // against the machine's own noise.
  contenders.push(await prepare(NAMES.bareAgain, () => startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'bare-server.ts')])));
  // The same run with tracing's cost whatever the load: what load shedding saves.
  contenders.push(await prepare(NAMES.runAll, flowStudioRun('run-all-data', everyRun(process.env))));
  // Another checkout's `flow-studio run` beside this one's: a change to tracing's cost, or the
  // machine's drift from an earlier day's figures, weighed in one run.
  if (runFrom) {
    contenders.push(
      await prepare(NAMES.runAllFrom, () =>
        startPinned(SERVER_CORE, process.execPath, [join(runFrom, 'bin', 'flow-studio.js'), 'run', integration, '--data-dir', join(work, 'run-from-data')], everyRun(process.env), connectorReady),
      ),
    );
  }
  // The same run also exporting every span over OTLP/HTTP protobuf to a local receiver.
  const otlp = await startOtlpSink();
  const otlpEnv = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: 'bench', OTEL_BSP_MAX_QUEUE_SIZE: '65536', OTEL_BSP_SCHEDULE_DELAY: '200' };
  contenders.push(await prepare(NAMES.otel, flowStudioRun('otel-data', otlpEnv)));
  // Deployed runtimes usually have a core to spare, and the exporter moves its work to a worker
  // thread there: the same runs with the request thread on core 0 and other threads free to
  // use core 1 (which wrk also uses, so any help they take slows the load generator, not just the
  // server). Their CPU column still counts every thread.
  contenders.push(await prepare(NAMES.runSpare, flowStudioRun('spare-run-data', process.env, true)));
  contenders.push(await prepare(NAMES.otelSpare, flowStudioRun('spare-otel-data', otlpEnv, true)));
  contenders.push(await prepare(NAMES.runSpareAll, flowStudioRun('spare-run-all-data', everyRun(process.env), true)));
  contenders.push(await prepare(NAMES.otelSpareAll, flowStudioRun('spare-otel-all-data', everyRun(otlpEnv), true)));
  contenders.push(
    await prepare(NAMES.remote, async () => {
      const platformDir = join(work, 'platform-data');
      const platform = await startPinned(SERVER_CORE, process.execPath, [...cli, 'platform', '--port', '0', '--data-dir', platformDir], process.env, /platform listening on (\S+)/);
      const env = { ...process.env, FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN_FILE: join(platformDir, 'platform.token') };
      try {
        const runtime = await startPinned(SERVER_CORE, process.execPath, [...cli, 'run', integration], env, connectorReady);
        return { ...runtime, helpers: [platform.child], stop: async () => (await runtime.stop(), await platform.stop()) };
      } catch (err) {
        await platform.stop();
        throw err;
      }
    }),
  );
  contenders.push(
    await prepare(NAMES.studio, () =>
      startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'studio-server.ts'), join(work, 'workspace'), join(work, 'studio-data')]),
    ),
  );
  // A workspace of its own: a studio keeps its routes' ports in the workspace it serves.
  writeOrdersIntegration(join(work, 'workspace-all'));
  contenders.push(
    await prepare(NAMES.studioAll, () =>
      startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'studio-server.ts'), join(work, 'workspace-all'), join(work, 'studio-all-data')], everyRun(process.env)),
    ),
  );
  // Another checkout's studio beside this one's: a change to the studio's recording weighs less
  // than the load moves between two bench runs on a shared machine.
  if (studioFrom) {
    writeOrdersIntegration(join(work, 'workspace-from'));
    contenders.push(
      await prepare(NAMES.studioAllFrom, () =>
        startPinned(SERVER_CORE, process.execPath, [join(studioFrom, 'bin', 'run-ts.js'), join(studioFrom, 'bench', 'http', 'studio-server.ts'), join(work, 'workspace-from'), join(work, 'studio-from-data')], everyRun(process.env)),
      ),
    );
  }
  if (!wanted(NAMES.benthos)) contenders.push({ name: NAMES.benthos, runs: [], note: 'skipped (--only)', answered: 0 });
  else if (opts['no-benthos']) contenders.push({ name: NAMES.benthos, runs: [], note: 'skipped (--no-benthos)', answered: 0 });
  else {
    try {
      process.stdout.write('  Benthos: building or reusing the cached binary (.ci/benthos.sh)… ');
      const bin = await buildBenthos();
      console.log(bin);
      contenders.push(await prepare(NAMES.benthos, () => startBenthos(bin, work, SERVER_CORE), false));
    } catch (err) {
      console.log(`skipped: ${(err as Error).message}`);
      contenders.push({ name: NAMES.benthos, runs: [], note: `skipped: ${(err as Error).message}`, answered: 0 });
    }
  }
  if (!wanted(NAMES.red)) contenders.push({ name: NAMES.red, runs: [], note: 'skipped (--only)', answered: 0 });
  else if (opts['no-node-red']) contenders.push({ name: NAMES.red, runs: [], note: 'skipped (--no-node-red)', answered: 0 });
  else {
    try {
      process.stdout.write('  installing node-red into a temporary folder… ');
      const t = Date.now();
      const redDir = join(work, 'node-red');
      await installNodeRed(redDir);
      const { version } = JSON.parse(readFileSync(join(redDir, 'node_modules', 'node-red', 'package.json'), 'utf8')) as { version: string };
      console.log(`node-red ${version} in ${Math.round((Date.now() - t) / 1000)}s`);
      contenders.push(await prepare(NAMES.red, () => startNodeRed(redDir, SERVER_CORE)));
    } catch (err) {
      console.log(`\n  Node-RED not measured: ${(err as Error).message}`);
      contenders.push({ name: NAMES.red, runs: [], note: `not measured: ${(err as Error).message}`, answered: 0 });
    }
  }
  printTable(await measureRounds(contenders));
  await atOnceTargets(contenders);
  await printNotTraced(contenders);
  if (!opts['no-retention']) await retention(flowStudioRun('retention-data', everyRun(process.env)), join(work, 'retention-data'));
} finally {
  for (const c of contenders) await c.server?.stop();
  rmSync(work, { recursive: true, force: true });
}
if (!opts['no-sse']) await sseLoad();
