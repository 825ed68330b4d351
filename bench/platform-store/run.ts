/**
 * Platform store bench, in one run: the platform on SQLite against the platform on PostgreSQL
 * (KV GET, KV PUT, queue publish→receive→ack), then two replicas sharing one PostgreSQL against
 * one replica, each beside a noise floor measured the same way.
 *
 * How it decides on a small, shared machine:
 *  - Every contender runs at once and rounds interleave them (the order rotates each round), so
 *    a slow spell of the machine reaches all alike; a ratio is the median of per-round ratios.
 *  - A twin of the baseline (the same server again) is measured in every round like the others:
 *    twin/baseline is the run's noise floor. A verdict whose margin to its target is smaller than
 *    the floor's distance from 1.00 reads "not decided", never "met" or "missed".
 *  - SQLite against PostgreSQL: each platform server pinned to core 0, wrk and this process to
 *    core 1, the PostgreSQL server wherever the OS puts it (the box as one deployment runs it).
 *  - Replicas: the whole system is CPU-budgeted by cgroup quotas (cpu-budget.ts), so that two
 *    replicas have twice the CPU of one while PostgreSQL has the same budget in both: each
 *    replica REPLICA_CORES, PostgreSQL POSTGRES_CORES, wrk and this process the rest. Quotas cap,
 *    they do not reserve: on a machine loaded by other work a group gets less than its budget,
 *    which the floor then shows. Without cgroup access it says so and decides by pinning alone.
 *
 * Run: npm run bench:platform-store (starts a private PostgreSQL with .ci/postgres.sh)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatRatio, pairedRatio, verdict, type PairedRatio } from '../http/paired-ratio.ts';
import { testDatabaseUrl } from '../../src-main/platform/testing/platform-harness.ts';
import { pinSelf, startPinned, type Server } from '../platform/processes.ts';
import { cpuBudgets, postgresProcesses, type CpuBudgets } from './cpu-budget.ts';
import { kvGet, kvPut, queueThroughput, seedReadKeys, wakeUpLatency, type Load, type Rate, type Setup } from './workloads.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'flow-store-bench-'));
const TOKEN = 'bench-token-store-7d21';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const REPLICA_CORES = Number(process.env.BENCH_REPLICA_CORES ?? 0.3);
const POSTGRES_CORES = Number(process.env.BENCH_POSTGRES_CORES ?? 0.6);

type Metric = 'KV GET' | 'KV PUT' | 'queue';
type Measured = Map<string, Map<Metric, Rate[]>>;

async function start(name: string, replicas: number, core: (i: number) => number | undefined, store?: string): Promise<Setup> {
  const servers: Server[] = [];
  for (let i = 0; i < replicas; i++) {
    const args = [
      'bin/flow-studio.js',
      'platform',
      '--port',
      '0',
      '--data-dir',
      join(work, `${name}-${i}`),
      '--token',
      TOKEN,
      ...(store ? ['--store', store] : []),
    ];
    servers.push(await startPinned(core(i), args, repo));
  }
  const setup = { name, servers };
  await seedReadKeys(setup, TOKEN);
  return setup;
}

/** Every metric, ROUNDS rounds, the contenders' order rotating each round; a short warm-up round first. */
async function interleave(setups: Setup[], metrics: Metric[], load: Load): Promise<Measured> {
  const measured: Measured = new Map(setups.map((s) => [s.name, new Map(metrics.map((m) => [m, [] as Rate[]]))]));
  const run = (setup: Setup, metric: Metric, tag: string, l: Load): Promise<Rate> =>
    metric === 'KV GET'
      ? kvGet(setup, l)
      : metric === 'KV PUT'
        ? kvPut(setup, l, `${slug(setup.name)}-${tag}`)
        : queueThroughput(setup, l, `q-${slug(setup.name)}-${tag}`);
  for (const metric of metrics) for (const setup of setups) await run(setup, metric, 'warm', { ...load, seconds: 1 });
  for (let round = 0; round < ROUNDS; round++) {
    const order = setups.map((_, i) => setups[(i + round) % setups.length]);
    for (const metric of metrics) {
      for (const setup of order)
        measured
          .get(setup.name)!
          .get(metric)!
          .push(await run(setup, metric, `r${round}`, load));
    }
  }
  return measured;
}

const rates = (m: Measured, name: string, metric: Metric): Rate[] => m.get(name)!.get(metric)!;
const ratio = (m: Measured, a: string, b: string, metric: Metric): PairedRatio | undefined =>
  pairedRatio(rates(m, a, metric), rates(m, b, metric), (r) => r.perSecond);
const slug = (name: string): string => name.replace(/\W+/g, '-');
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(7);
const median = (rs: Rate[]): number => [...rs].map((r) => r.perSecond).sort((x, y) => x - y)[Math.floor(rs.length / 2)];
const errors = (rs: Rate[]): string => {
  const n = rs.reduce((s, r) => s + r.errors, 0);
  return n > 0 ? `  (${n} errors or lost!)` : '';
};

function report(m: Measured, names: string[], metrics: Metric[]): void {
  for (const name of names) {
    console.log(
      `  ${name.padEnd(22)} ${metrics.map((metric) => `${metric} ${fmt(median(rates(m, name, metric)))}${metric === 'queue' ? ' msg/s' : ' req/s'}${errors(rates(m, name, metric))}`).join('   ')}`,
    );
  }
}

function target(label: string, value: PairedRatio | undefined, goal: number, floor: PairedRatio | undefined): string {
  if (!value) return `${label} —`;
  return `${label} ${formatRatio(value)}  (target >= ${goal}: ${verdict(value, goal, 'at least', floor)}; noise floor ${formatRatio(floor)})`;
}

async function sqliteAgainstPostgres(load: Load): Promise<void> {
  console.log(`\n1. One platform server on SQLite against one on PostgreSQL — servers pinned to core 0, wrk and the bench to core 1, PostgreSQL unpinned;`);
  console.log(`   ${ROUNDS} interleaved rounds of ${load.seconds} s per metric, medians; the floor is a second SQLite server against the first`);
  const setups = [
    await start('sqlite', 1, () => 0),
    await start('sqlite (twin)', 1, () => 0),
    await start('postgres', 1, () => 0, await testDatabaseUrl(join(work, 'pg-one'))),
  ];
  const metrics: Metric[] = ['KV GET', 'KV PUT', 'queue'];
  try {
    const m = await interleave(setups, metrics, load);
    report(m, ['sqlite', 'sqlite (twin)', 'postgres'], metrics);
    for (const metric of metrics)
      console.log(
        '   ' + target(`PostgreSQL / SQLite, ${metric.padEnd(7)}`, ratio(m, 'postgres', 'sqlite', metric), 0.5, ratio(m, 'sqlite (twin)', 'sqlite', metric)),
      );
  } finally {
    await Promise.all(setups.flatMap((s) => s.servers.map((server) => server.stop())));
  }
}

async function replicas(load: Load, budgets: CpuBudgets, postgresPort: number): Promise<void> {
  console.log(`\n2. Two platform replicas sharing one PostgreSQL against one replica — ${budgets.description}:`);
  console.log(
    budgets.available
      ? `   each replica ${REPLICA_CORES} core, PostgreSQL ${POSTGRES_CORES} core (the same in both), wrk and the bench the rest; ${ROUNDS} interleaved rounds, medians; the floor is a second single replica against the first`
      : `   replicas and PostgreSQL unpinned, wrk unpinned: the ratio mixes in whatever else the machine runs`,
  );
  budgets.give('postgres', POSTGRES_CORES, postgresProcesses(postgresPort));
  const one = await start('one replica', 1, () => undefined, await testDatabaseUrl(join(work, 'pg-r1')));
  const twin = await start('one replica (twin)', 1, () => undefined, await testDatabaseUrl(join(work, 'pg-r1-twin')));
  const two = await start('two replicas', 2, () => undefined, await testDatabaseUrl(join(work, 'pg-r2')));
  const setups = [one, twin, two];
  setups.forEach((s) => s.servers.forEach((server, i) => budgets.give(`${slug(s.name)}-${i}`, REPLICA_CORES, [server.child.pid!])));
  const metrics: Metric[] = ['KV GET', 'KV PUT', 'queue'];
  try {
    const m = await interleave(setups, metrics, load);
    report(
      m,
      setups.map((s) => s.name),
      metrics,
    );
    console.log(
      '   ' +
        target('two replicas / one, KV GET', ratio(m, 'two replicas', 'one replica', 'KV GET'), 1.6, ratio(m, 'one replica (twin)', 'one replica', 'KV GET')),
    );
    for (const metric of ['KV PUT', 'queue'] as const) {
      console.log(
        `   two replicas / one, ${metric}: ${formatRatio(ratio(m, 'two replicas', 'one replica', metric))} (no target: bounded by PostgreSQL's own budget; floor ${formatRatio(ratio(m, 'one replica (twin)', 'one replica', metric))})`,
      );
    }
    const wake = await wakeUpLatency(two, TOKEN, 200);
    console.log(
      `   cross-replica wake-up (receive waiting on one replica, publish to the other): p50 ${wake.p50.toFixed(2)} ms, p99 ${wake.p99.toFixed(2)} ms (target p50 <= 5 ms: ${wake.p50 <= 5 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await Promise.all(setups.flatMap((s) => s.servers.map((server) => server.stop())));
  }
}

async function main(): Promise<void> {
  const admin = process.env.PLATFORM_TEST_POSTGRES_URL;
  if (!admin) throw new Error('PLATFORM_TEST_POSTGRES_URL is not set: run it as `npm run bench:platform-store`, which starts a private PostgreSQL');
  await pinSelf(1);
  console.log('Platform store bench — SQLite vs PostgreSQL, and two replicas vs one on one PostgreSQL; 127.0.0.1 only');
  await sqliteAgainstPostgres({ token: TOKEN, dir: work, seconds: SECONDS, connections: 32, core: 1 });
  const budgets = cpuBudgets();
  try {
    // Twice the connections of part 1: the same offered load must keep two replicas busy, not only one.
    await replicas({ token: TOKEN, dir: work, seconds: SECONDS, connections: 64 }, budgets, Number(new URL(admin).port));
  } finally {
    budgets.close();
  }
  console.log(
    '\nEach ratio is the median of per-round ratios (lowest–highest round in brackets). A loaded machine widens the floor; re-run on a quiet one to decide.',
  );
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
