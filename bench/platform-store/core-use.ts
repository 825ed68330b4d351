import { medianOf } from '../http/paired-ratio.ts';
import { procStats } from '../platform/processes.ts';
import { postgresProcesses, type CpuBudgets } from './cpu-budget.ts';

/**
 * Where the cores went while one setup was measured: each replica's process and PostgreSQL (the
 * postmaster and every backend), in cores (CPU seconds over wall seconds), and the CPU time a
 * request took in each. Read from /proc around a round; PostgreSQL is shared by the setups but
 * only one setup is loaded at a time, so its CPU in a round is that setup's.
 */
export interface CoreUse {
  replicas: number[];
  postgres: number;
  /** CPU µs per request, summed over the replicas, and in PostgreSQL. */
  replicaUsPerRequest: number;
  postgresUsPerRequest: number;
  /** Share of the 10 ms periods in which a replica's budget ran out (the cap bit), the highest of the replicas; undefined without budgets. */
  replicaThrottled?: number;
  postgresThrottled?: number;
}

/**
 * Call before a round; the function it returns, after it, with the requests the round served.
 * `postgresPort`: the PostgreSQL server the setup uses, if any; `budgets`: its groups' CPU budgets, if any.
 */
export function startCoreUse(pids: number[], postgresPort: number | undefined, budgets?: { budgets: CpuBudgets; replicaGroups: string[] }): (requests: number) => CoreUse {
  const pgCpu = (): Map<number, number> => new Map(postgresPort === undefined ? [] : postgresProcesses(postgresPort).map((pid) => [pid, cpuOf(pid)]));
  const groups = budgets ? [...budgets.replicaGroups, 'postgres'] : [];
  const throttling = (g: string) => budgets?.budgets.throttling(g);
  const t0 = performance.now();
  const replicas0 = pids.map(cpuOf);
  const pg0 = pgCpu();
  const throttled0 = groups.map(throttling);
  return (requests) => {
    const seconds = (performance.now() - t0) / 1000;
    const replicaCpu = pids.map((pid, i) => cpuOf(pid) - replicas0[i]);
    // A backend forked during the round spent all its CPU in it.
    let pgSeconds = 0;
    for (const [pid, cpu] of pgCpu()) pgSeconds += cpu - (pg0.get(pid) ?? 0);
    const throttled = groups.map((g, i) => {
      const now = throttling(g);
      const before = throttled0[i];
      return now && before && now.periods > before.periods ? (now.throttled - before.throttled) / (now.periods - before.periods) : undefined;
    });
    const replicaThrottled = throttled.slice(0, -1).filter((t): t is number => t !== undefined);
    return {
      replicas: replicaCpu.map((c) => c / seconds),
      postgres: pgSeconds / seconds,
      replicaUsPerRequest: (replicaCpu.reduce((a, b) => a + b, 0) * 1e6) / Math.max(1, requests),
      postgresUsPerRequest: (pgSeconds * 1e6) / Math.max(1, requests),
      replicaThrottled: replicaThrottled.length > 0 ? Math.max(...replicaThrottled) : undefined,
      postgresThrottled: groups.length > 0 ? throttled.at(-1) : undefined,
    };
  };
}

function cpuOf(pid: number): number {
  try {
    return procStats(pid).cpuSeconds;
  } catch {
    return 0; // exited
  }
}

/** The median round of each figure. */
export function medianUse(uses: readonly CoreUse[]): CoreUse {
  const m = (f: (u: CoreUse) => number | undefined): number | undefined => {
    const values = uses.map(f).filter((v): v is number => v !== undefined);
    return values.length > 0 ? medianOf(values) : undefined;
  };
  return {
    replicas: uses[0].replicas.map((_, i) => m((u) => u.replicas[i])!),
    postgres: m((u) => u.postgres)!,
    replicaUsPerRequest: m((u) => u.replicaUsPerRequest)!,
    postgresUsPerRequest: m((u) => u.postgresUsPerRequest)!,
    replicaThrottled: m((u) => u.replicaThrottled),
    postgresThrottled: m((u) => u.postgresThrottled),
  };
}

/**
 * What the budgets let two replicas reach against one, from the CPU a request took in each part
 * (measured on one replica): a setup serves at most what its slowest part's budget pays for.
 */
export function budgetCeiling(one: CoreUse, replicaCores: number, postgresCores: number): { ceiling: number; bound: 'replicas' | 'PostgreSQL' } {
  const perReplica = replicaCores / (one.replicaUsPerRequest / 1e6);
  const byPostgres = postgresCores / (one.postgresUsPerRequest / 1e6);
  const oneRate = Math.min(perReplica, byPostgres);
  const twoRate = Math.min(2 * perReplica, byPostgres);
  return { ceiling: twoRate / oneRate, bound: 2 * perReplica <= byPostgres ? 'replicas' : 'PostgreSQL' };
}

export function describeUse(name: string, use: CoreUse, replicaCores: number | undefined, postgresCores: number | undefined): string {
  const pct = (t: number | undefined): string => (t === undefined ? '' : `, capped in ${Math.round(t * 100)}% of periods`);
  const of = (budget: number | undefined): string => (budget === undefined ? '' : ` of ${budget}`);
  return (
    `${name}: replica${use.replicas.length > 1 ? 's' : ''} ${use.replicas.map((c) => c.toFixed(2)).join(' + ')}${of(replicaCores)} core${pct(use.replicaThrottled)}` +
    `, PostgreSQL ${use.postgres.toFixed(2)}${of(postgresCores)}${pct(use.postgresThrottled)}` +
    `; CPU a GET: ${use.replicaUsPerRequest.toFixed(0)} µs in the replicas, ${use.postgresUsPerRequest.toFixed(0)} µs in PostgreSQL`
  );
}
