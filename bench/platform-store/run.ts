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
import { loadavg } from 'node:os';
import { cpuBudgets, postgresProcesses, type CpuBudgets } from './cpu-budget.ts';
import { budgetCeiling, describeUse, medianUse, startCoreUse, type CoreUse } from './core-use.ts';
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

/**
 * Every metric, ROUNDS rounds, the contenders' order rotating each round; a short warm-up round
 * first. `observe`, when given, is called before each measured round and what it returns after it.
 */
async function interleave(setups: Setup[], metrics: Metric[], load: Load, observe?: (setup: Setup, metric: Metric) => ((rate: Rate) => void) | undefined): Promise<Measured> {
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
      for (const setup of order) {
        const observed = observe?.(setup, metric);
        const rate = await run(setup, metric, `r${round}`, load);
        observed?.(rate);
        measured.get(setup.name)!.get(metric)!.push(rate);
      }
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

async function sqliteAgainstPostgres(load: Load, postgresPort: number): Promise<void> {
  console.log(`\n1. One platform server on SQLite against one on PostgreSQL — servers pinned to core 0, wrk and the bench to core 1, PostgreSQL unpinned;`);
  console.log(`   ${ROUNDS} interleaved rounds of ${load.seconds} s per metric, medians; the floor is a second SQLite server against the first`);
  const setups = [
    await start('sqlite', 1, () => 0),
    await start('sqlite (twin)', 1, () => 0),
    await start('postgres', 1, () => 0, await testDatabaseUrl(join(work, 'pg-one'))),
  ];
  const metrics: Metric[] = ['KV GET', 'KV PUT', 'queue'];
  // The CPU a request took in the platform server and, behind it, in PostgreSQL: what a ratio
  // below its target is made of (a whole core for the SQLite server is not a whole core for both).
  const uses = new Map<string, CoreUse[]>();
  const observe = (setup: Setup, metric: Metric): ((rate: Rate) => void) | undefined => {
    if (setup.name === 'sqlite (twin)') return undefined;
    const finish = startCoreUse([setup.servers[0].child.pid!], setup.name === 'postgres' ? postgresPort : undefined);
    const key = `${setup.name} ${metric}`;
    return (rate) => uses.set(key, [...(uses.get(key) ?? []), finish(rate.requests)]);
  };
  try {
    const m = await interleave(setups, metrics, load, observe);
    report(m, ['sqlite', 'sqlite (twin)', 'postgres'], metrics);
    for (const metric of metrics)
      console.log(
        '   ' + target(`PostgreSQL / SQLite, ${metric.padEnd(7)}`, ratio(m, 'postgres', 'sqlite', metric), 0.5, ratio(m, 'sqlite (twin)', 'sqlite', metric)),
      );
    console.log('   CPU a request (medians of the rounds; a queue message is published, received and acked):');
    for (const metric of metrics) {
      const sqlite = medianUse(uses.get(`sqlite ${metric}`)!);
      const postgres = medianUse(uses.get(`postgres ${metric}`)!);
      console.log(
        `     ${metric.padEnd(7)} SQLite server ${sqlite.replicaUsPerRequest.toFixed(0)} µs (${sqlite.replicas[0].toFixed(2)} core); PostgreSQL: server ${postgres.replicaUsPerRequest.toFixed(0)} µs (${postgres.replicas[0].toFixed(2)} core) + PostgreSQL ${postgres.postgresUsPerRequest.toFixed(0)} µs (${postgres.postgres.toFixed(2)} core)`,
      );
    }
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
  // Where the cores went in each KV GET round: what decides whether two replicas had twice the CPU of one.
  const uses = new Map<string, CoreUse[]>(setups.map((s) => [s.name, []]));
  const observe = (setup: Setup, metric: Metric): ((rate: Rate) => void) | undefined => {
    if (metric !== 'KV GET') return undefined;
    const groups = setup.servers.map((_, i) => `${slug(setup.name)}-${i}`);
    const finish = startCoreUse(
      setup.servers.map((server) => server.child.pid!),
      postgresPort,
      { budgets, replicaGroups: groups },
    );
    return (rate) => uses.get(setup.name)!.push(finish(rate.requests));
  };
  try {
    const m = await interleave(setups, metrics, load, observe);
    report(
      m,
      setups.map((s) => s.name),
      metrics,
    );
    console.log(
      '   ' +
        target('two replicas / one, KV GET', ratio(m, 'two replicas', 'one replica', 'KV GET'), 1.6, ratio(m, 'one replica (twin)', 'one replica', 'KV GET')),
    );
    explainReplicas(medianUse(uses.get('one replica')!), medianUse(uses.get('two replicas')!), budgets.available);
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

/**
 * Says what the KV GET ratio of two replicas to one can mean in this run: the cores each part
 * used against its budget, the ceiling the budgets set (from the CPU a GET took in the replicas
 * and in PostgreSQL), and, when the two replicas did not get the cores they may use, that the
 * ratio then measures the machine's load, not how replicas scale.
 */
function explainReplicas(one: CoreUse, two: CoreUse, budgeted: boolean): void {
  const replicaBudget = budgeted ? REPLICA_CORES : undefined;
  const pgBudget = budgeted ? POSTGRES_CORES : undefined;
  console.log(`   cores in the KV GET rounds (medians), ${describeUse('one replica', one, replicaBudget, pgBudget)}`);
  console.log(`     ${describeUse('two replicas', two, replicaBudget, pgBudget)}`);
  const [load1] = loadavg();
  if (!budgeted) {
    console.log(`   why: no CPU budgets in force, so two replicas do not have twice the CPU of one; the ratio mixes in whatever else runs (load average ${load1.toFixed(1)})`);
    return;
  }
  const { ceiling, bound } = budgetCeiling(one, REPLICA_CORES, POSTGRES_CORES);
  console.log(
    `   the budgets allow two replicas / one <= ${ceiling.toFixed(2)} (bounded by ${bound}: ${REPLICA_CORES} core a replica at ${one.replicaUsPerRequest.toFixed(0)} µs a GET, ${POSTGRES_CORES} core of PostgreSQL at ${one.postgresUsPerRequest.toFixed(0)} µs a GET)`,
  );
  const twoGot = two.replicas.reduce((a, b) => a + b, 0);
  const oneGot = one.replicas[0];
  if (oneGot < 0.85 * REPLICA_CORES) {
    console.log(
      `   why: one replica used ${oneGot.toFixed(2)} of its ${REPLICA_CORES} core, so its rate was not set by its budget (it waited on PostgreSQL's round trips, or on a core the machine, load average ${load1.toFixed(1)}, did not give it): the budgets alone do not decide this ratio`,
    );
  }
  // What the cores the replicas got pay for: their share of one replica's, over the CPU a GET took.
  const paidFor = (twoGot / Math.max(oneGot, 1e-9)) * (one.replicaUsPerRequest / Math.max(two.replicaUsPerRequest, 1e-9));
  console.log(
    `   the cores the replicas got pay for two replicas / one = ${paidFor.toFixed(2)} (${twoGot.toFixed(2)} core against ${oneGot.toFixed(2)}, at ${two.replicaUsPerRequest.toFixed(0)} µs a GET against ${one.replicaUsPerRequest.toFixed(0)})`,
  );
  if (twoGot < 1.9 * oneGot) {
    const verdict =
      paidFor < 1.6
        ? `too little to pay for the 1.6× target however replicas scale, so this ratio measures the machine's load`
        : 'yet enough to pay for the 1.6× target, so the ratio is still the replicas\' own';
    console.log(
      `   why: the two replicas used ${twoGot.toFixed(2)} core together where one used ${oneGot.toFixed(2)} (${(twoGot / Math.max(oneGot, 1e-9)).toFixed(2)}×), not twice its CPU (load average ${load1.toFixed(1)} on this machine's cores; budgets cap but do not reserve): ${verdict}`,
    );
  }
}

async function main(): Promise<void> {
  const admin = process.env.PLATFORM_TEST_POSTGRES_URL;
  if (!admin) throw new Error('PLATFORM_TEST_POSTGRES_URL is not set: run it as `npm run bench:platform-store`, which starts a private PostgreSQL');
  await pinSelf(1);
  console.log('Platform store bench — SQLite vs PostgreSQL, and two replicas vs one on one PostgreSQL; 127.0.0.1 only');
  await sqliteAgainstPostgres({ token: TOKEN, dir: work, seconds: SECONDS, connections: 32, core: 1 }, Number(new URL(admin).port));
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
