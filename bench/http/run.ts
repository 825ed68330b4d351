/**
 * HTTP benchmark: the runtime's flow `http source → set → response` against bare node:http doing
 * the same work and Node-RED doing the same (http in → change → http response), measured in one
 * run by wrk (POST JSON, 50 connections, after a warm-up). Servers run pinned to core 0 and the
 * load generator to core 1. Then SSE: 1,000 concurrent streams of 10 frames/s, with the server's
 * CPU and RSS.
 *
 * usage: npm run bench:http [-- --seconds 10 --warmup 3 --rounds 3 --streams 1000 --no-node-red]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installNodeRed, startNodeRed } from './node-red.ts';
import { startPinned, stopChild, type Started } from './pinned-process.ts';
import { cpuSeconds, rssMiB } from './proc-stats.ts';
import { ORDER, postScript, runWrk, type WrkResult } from './wrk.ts';

const SERVER_CORE = 0;
const LOAD_CORE = 1;
const CONNECTIONS = 50;
const EXPECTED = { id: 'o-1042', customer: 'ana', total: 10 };

const { values: opts } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    streams: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    'no-node-red': { type: 'boolean', default: false },
  },
});
const seconds = Number(opts.seconds);
const warmup = Number(opts.warmup);
const streams = Number(opts.streams);
const rounds = Number(opts.rounds);
const tsRunner = [join('bin', 'run-ts.js')];
const script = postScript();

interface Measured extends WrkResult {
  /** Server CPU time (user + system) per request, in microseconds. */
  cpuUs: number;
}

interface Row {
  name: string;
  result?: Measured;
  note?: string;
}

interface Contender {
  name: string;
  server?: Started;
  runs: Measured[];
  note?: string;
}

/** Starts a server and checks it answers the order exactly as the others do. */
async function prepare(name: string, start: () => Promise<Started>): Promise<Contender> {
  try {
    const server = await start();
    const check = await fetch(`${server.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ORDER });
    const answer = await check.json();
    if (check.status !== 200 || JSON.stringify(answer) !== JSON.stringify(EXPECTED)) {
      await server.stop();
      return { name, runs: [], note: `wrong answer ${check.status} ${JSON.stringify(answer)}` };
    }
    process.stdout.write(`  ${name}: warm-up ${warmup}s… `);
    await runWrk(`${server.url}/orders`, { core: LOAD_CORE, connections: CONNECTIONS, seconds: warmup, script });
    console.log('ready');
    return { name, server, runs: [] };
  } catch (err) {
    return { name, runs: [], note: (err as Error).message.split('\n')[0] };
  }
}

/**
 * Measures the contenders in interleaved rounds (A, B, C, A, B, C, …) and keeps each one's median,
 * so a burst of other load on the machine hits every contender alike rather than one of them.
 */
async function measureRounds(contenders: Contender[]): Promise<Row[]> {
  for (let round = 1; round <= rounds; round++) {
    for (const c of contenders) {
      if (!c.server) continue;
      const pid = c.server.child.pid!;
      const cpuBefore = cpuSeconds(pid);
      const w = await runWrk(`${c.server.url}/orders`, { core: LOAD_CORE, connections: CONNECTIONS, seconds, script });
      const r = { ...w, cpuUs: ((cpuSeconds(pid) - cpuBefore) / w.requests) * 1e6 };
      c.runs.push(r);
      console.log(`  round ${round} ${c.name}: ${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.cpuUs.toFixed(1)} µs CPU/request`);
    }
  }
  return contenders.map((c) => (c.runs.length ? { name: c.name, result: median(c.runs) } : { name: c.name, note: c.note }));
}

function median(runs: Measured[]): Measured {
  const mid = <T>(xs: T[], key: (x: T) => number): number => {
    const sorted = xs.map(key).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  return {
    rps: mid(runs, (r) => r.rps),
    requests: runs.reduce((a, r) => a + r.requests, 0),
    p50Ms: mid(runs, (r) => r.p50Ms),
    p99Ms: mid(runs, (r) => r.p99Ms),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    cpuUs: mid(runs, (r) => r.cpuUs),
  };
}

function printTable(rows: Row[]): void {
  const bare = rows.find((r) => r.name === 'bare node:http')?.result;
  const red = rows.find((r) => r.name === 'Node-RED')?.result;
  console.log('\n| server | req/s | p50 ms | p99 ms | errors | CPU µs/request | req/s vs bare | CPU-capacity vs bare | req/s vs Node-RED |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    if (!r.result) {
      console.log(`| ${r.name} | — | — | — | — | — | — | — | ${r.note} |`);
      continue;
    }
    const x = r.result;
    const vsBare = bare ? `${((x.rps / bare.rps) * 100).toFixed(1)}%` : '—';
    const capacity = bare ? `${((bare.cpuUs / x.cpuUs) * 100).toFixed(1)}%` : '—';
    const vsRed = red ? `${(x.rps / red.rps).toFixed(2)}×` : '—';
    console.log(`| ${r.name} | ${Math.round(x.rps)} | ${x.p50Ms.toFixed(2)} | ${x.p99Ms.toFixed(2)} | ${x.errors} | ${x.cpuUs.toFixed(1)} | ${vsBare} | ${capacity} | ${vsRed} |`);
  }
  const flow = rows.find((r) => r.name === 'flow (http → set → response)')?.result;
  if (flow && bare) {
    const ratio = flow.rps / bare.rps;
    console.log(`\nflow / bare node:http = ${(ratio * 100).toFixed(1)}% of requests/s (target ≥ 70%: ${ratio >= 0.7 ? 'met' : 'NOT met'}); by CPU cost per request ${((bare.cpuUs / flow.cpuUs) * 100).toFixed(1)}%`);
    if (red) console.log(`flow / Node-RED = ${(flow.rps / red.rps).toFixed(2)}× requests/s; by CPU cost per request ${(red.cpuUs / flow.cpuUs).toFixed(2)}×`);
  }
  console.log('(CPU-capacity: the server\'s own CPU time per request, read from /proc; it stays meaningful when other work shares the machine)');
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
  `HTTP bench: wrk -t1 -c${CONNECTIONS} -d${seconds}s POST ${ORDER}, warm-up ${warmup}s, ${rounds} interleaved rounds (median); servers on core ${SERVER_CORE}, wrk on core ${LOAD_CORE}; node ${process.version}`,
);
const [loadAvg] = loadavg();
if (loadAvg > 0.5) console.log(`  note: load average is ${loadAvg.toFixed(2)} before starting; other work on this machine skews absolute numbers (ratios are measured side by side)`);
const contenders: Contender[] = [];
contenders.push(await prepare('flow (http → set → response)', () => startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'flow-server.ts')])));
contenders.push(await prepare('bare node:http', () => startPinned(SERVER_CORE, process.execPath, [...tsRunner, join('bench', 'http', 'bare-server.ts')])));
const redDir = mkdtempSync(join(tmpdir(), 'bench-node-red-'));
try {
  if (opts['no-node-red']) contenders.push({ name: 'Node-RED', runs: [], note: 'skipped (--no-node-red)' });
  else {
    try {
      process.stdout.write('  installing node-red into a temporary folder… ');
      const t = Date.now();
      await installNodeRed(redDir);
      const { version } = JSON.parse(readFileSync(join(redDir, 'node_modules', 'node-red', 'package.json'), 'utf8')) as { version: string };
      console.log(`node-red ${version} in ${Math.round((Date.now() - t) / 1000)}s`);
      contenders.push(await prepare('Node-RED', () => startNodeRed(redDir, SERVER_CORE)));
    } catch (err) {
      console.log(`\n  Node-RED not measured: ${(err as Error).message}`);
      contenders.push({ name: 'Node-RED', runs: [], note: `not measured: ${(err as Error).message}` });
    }
  }
  printTable(await measureRounds(contenders));
} finally {
  for (const c of contenders) await c.server?.stop();
  rmSync(redDir, { recursive: true, force: true });
}
await sseLoad();
