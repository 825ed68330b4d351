/**
 * Leak test of a deployed runtime (not run in CI): `flow-studio run` from the built JavaScript
 * (`npm run build`, run first here) serving the one-route flow of bench:cold-start, with its
 * embedded platform (or `--remote`: a `flow-studio platform` process beside it), first loaded to
 * its maximum for a few seconds, then held at half that rate for the duration while its RSS and
 * V8 heap are sampled (after a full collection, through bench/leak/memory-reporter.mjs). It prints
 * each sample and, at the end, the least-squares slope of RSS and heap over the steady part
 * (the first tenth is warm-up) in MiB per hour, with the range they moved in.
 *
 * usage: npm run bench:leak [-- --minutes 60 --sample-seconds 10 --remote]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCli } from '../../src-main/build/build-cli.ts';
import { EXPECTED, freePort, ORDER, stop } from '../cold-start/first-answer.ts';
import { load } from './paced-load.ts';

const { values: opts } = parseArgs({ options: { minutes: { type: 'string', default: '60' }, 'sample-seconds': { type: 'string', default: '10' }, remote: { type: 'boolean', default: false } } });
const minutes = Number(opts.minutes);
const sampleMs = Number(opts['sample-seconds']) * 1000;
const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'leak-'));
// As bin/flow-studio.js starts it where the sources are not (a package, the image).
const cli = [join(root, 'dist-electron', 'cli.js')];
const MiB = 1024 * 1024;

interface Sample {
  at: number;
  rss: number;
  heapUsed: number;
}

/** Starts a process and resolves once `ready` shows in its output. */
function started(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer): void => {
      out += d.toString();
      if (out.length > 1 << 20) out = out.slice(-(1 << 19));
      if (ready.test(out)) resolve({ child, output: () => out });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`)));
  });
}

/** Least-squares slope of `value` over time, per hour. */
function slopePerHour(samples: Sample[], value: (s: Sample) => number): number {
  const xs = samples.map((s) => s.at / 3_600_000);
  const ys = samples.map(value);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  await buildCli({ sourceRoot: root });
  const port = await freePort();
  const dir = join(work, 'orders');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'orders.yaml'),
    `connectors:\n  http: {type: http, host: 127.0.0.1, port: ${port}}\nflows:\n  price:\n    source: {type: http, path: /orders, methods: [POST]}\n    steps:\n      - set: {body: '{"id": body.id, "customer": body.customer, "total": body.price * body.qty}'}\n`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, FLOW_LEAK_SAMPLE_MS: String(sampleMs) };
  let platform: ChildProcess | undefined;
  if (opts.remote) {
    const platformPort = await freePort();
    const p = await started([...cli, 'platform', '--port', String(platformPort), '--data-dir', join(work, 'platform')], process.env, /listening/);
    platform = p.child;
    env.FLOW_PLATFORM_API_URL = `http://127.0.0.1:${platformPort}`;
    env.FLOW_PLATFORM_API_TOKEN = readFileSync(join(work, 'platform', 'platform.token'), 'utf8').trim();
  }
  const memoryReporter = join(root, 'bench', 'leak', 'memory-reporter.mjs');
  const { child } = await started(['--expose-gc', '--import', memoryReporter, ...cli, 'run', dir, '--data-dir', join(work, 'data')], env, /connector http ready/);
  const samples: Sample[] = [];
  child.on('message', (m: { memory?: Sample }) => {
    if (!m.memory) return;
    samples.push(m.memory);
    const minute = ((m.memory.at - samples[0].at) / 60_000).toFixed(1);
    console.log(`${minute.padStart(6)} min  RSS ${(m.memory.rss / MiB).toFixed(1).padStart(6)} MiB  heap ${(m.memory.heapUsed / MiB).toFixed(1).padStart(6)} MiB`);
  });
  const url = `http://127.0.0.1:${port}/orders`;
  try {
    const check = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ORDER });
    if (JSON.stringify(await check.json()) !== JSON.stringify(EXPECTED)) throw new Error('the flow answered something else than the order total');
    const max = await load(url, ORDER, 5);
    const maxRate = max.answered / max.seconds;
    const rate = Math.round(maxRate / 2);
    console.log(`maximum ${Math.round(maxRate)} req/s over ${max.seconds.toFixed(1)} s (${max.failed} failed); holding ${rate} req/s for ${minutes} min, a sample every ${sampleMs / 1000} s`);
    samples.length = 0;
    const steady = await load(url, ORDER, minutes * 60, rate);
    console.log(`\nsent ${steady.sent} (${Math.round(steady.sent / steady.seconds)} req/s), answered ${steady.answered}, failed ${steady.failed}, skipped while ${50} were waiting: ${steady.skipped}`);
    report(samples);
  } finally {
    await stop(child);
    if (platform) await stop(platform);
  }
}

function report(all: Sample[]): void {
  const steady = all.slice(Math.floor(all.length / 10));
  if (steady.length < 3) {
    console.log(`only ${steady.length} samples in the steady part: run longer or sample more often for a slope`);
    return;
  }
  const span = (steady[steady.length - 1].at - steady[0].at) / 60_000;
  for (const [name, value] of [
    ['RSS', (s: Sample) => s.rss / MiB],
    ['heap used', (s: Sample) => s.heapUsed / MiB],
  ] as const) {
    const values = steady.map(value);
    console.log(
      `${name.padEnd(9)} slope ${slopePerHour(steady, value).toFixed(2).padStart(7)} MiB/h over ${span.toFixed(1)} min (${steady.length} samples); first ${values[0].toFixed(1)}, last ${values[values.length - 1].toFixed(1)}, min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)} MiB`,
    );
  }
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
