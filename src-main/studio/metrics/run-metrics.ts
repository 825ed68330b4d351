import type { MetricPoint, MetricRow, MetricsQuery, MetricsSeries, Sparklines } from '../../../shared/metrics-types.ts';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { BINS, binOf, percentile } from './latency-histogram.ts';

interface Bucket {
  runs: number;
  errors: number;
  rejected: number;
  hist: Uint32Array;
}

/** Buckets of one width, kept for a span of time; older ones are dropped as new ones come. */
class Tier {
  readonly buckets = new Map<number, Bucket>();
  private newest = 0;

  constructor(
    readonly stepMs: number,
    private readonly keep: number,
  ) {}

  bucket(at: number, create: boolean): Bucket | undefined {
    const index = Math.floor(at / this.stepMs);
    let b = this.buckets.get(index);
    // A run older than the span this tier keeps (read back from disk) has no bucket here.
    if (!b && create && index > this.newest - this.keep) {
      b = { runs: 0, errors: 0, rejected: 0, hist: new Uint32Array(BINS) };
      this.buckets.set(index, b);
      if (index > this.newest) {
        this.newest = index;
        // Dropped a few at a time as time moves on; a map walk per new bucket, not per run.
        for (const old of this.buckets.keys()) if (old <= index - this.keep) this.buckets.delete(old);
      }
    }
    return b;
  }
}

/** The tiers every series keeps: seconds for 5 minutes, 10 s for an hour, minutes for a day. */
const TIERS: ReadonlyArray<[number, number]> = [
  [1_000, 300],
  [10_000, 360],
  [60_000, 1_440],
];

interface Series {
  integration: string;
  flow: string;
  route: string | undefined;
  tiers: Tier[];
}

/** Steps of a chart per window: about 60 points, on a tier whose buckets divide the step. */
const POINTS = 60;
const SPARK_WINDOW_MS = 5 * 60_000;
const SPARK_STEP_MS = 10_000;

/**
 * Requests per second, p50/p95/p99 latency and error rate of every flow and route, kept as the
 * run store learns of runs (and as a request links to its run and gives it a route and status),
 * over the last minutes to a day. Built again from the stored runs when the studio starts.
 */
export class RunMetrics {
  private readonly series = new Map<string, Series>();
  /**
   * The same series by integration, flow and route: found without building its key, as each
   * run is counted once when stored and twice more when its request links to it.
   */
  private readonly byName = new Map<string, Map<string, Map<string | undefined, Series>>>();

  add(run: RunSummary): void {
    this.count(run, 1);
  }

  /** Takes a run back out (its route or status changed: it is added again as it is now). */
  remove(run: RunSummary): void {
    this.count(run, -1);
  }

  clear(): void {
    this.series.clear();
    this.byName.clear();
  }

  query(q: MetricsQuery, now = Date.now()): MetricsSeries {
    const windowMs = Math.max(60_000, Math.min(24 * 60 * 60_000, Number(q?.windowMs) || 5 * 60_000));
    // The finest tier that keeps the whole window; about 60 points, each a whole number of its buckets.
    const t = Math.max(0, TIERS.findIndex(([step, keep]) => step * keep >= windowMs));
    const [tierStep] = TIERS[t];
    const stepMs = Math.max(tierStep, Math.ceil(windowMs / POINTS / tierStep) * tierStep);
    const to = Math.floor(now / stepMs) * stepMs + stepMs;
    const from = to - Math.ceil(windowMs / stepMs) * stepMs;
    const chosen = [...this.series.values()].filter((s) => (!q?.integration || s.integration === q.integration) && (!q?.flow || s.flow === q.flow) && (!q?.route || s.route === q.route));
    const points: MetricPoint[] = [];
    const total = newSum();
    for (let at = from; at < to; at += stepMs) {
      const sum = newSum();
      for (const s of chosen) for (let b = at; b < at + stepMs; b += tierStep) addInto(sum, s.tiers[t].bucket(b, false));
      addInto(total, sum);
      points.push({ at, ...figures(sum, stepMs) });
    }
    const rows: MetricRow[] = [];
    for (const s of chosen) {
      const sum = newSum();
      for (let b = from; b < to; b += tierStep) addInto(sum, s.tiers[t].bucket(b, false));
      if (sum.runs === 0) continue;
      const { rejected: _rejected, ...f } = figures(sum, to - from);
      const row: MetricRow = { integration: s.integration, flow: s.flow, ...f };
      if (s.route !== undefined) row.route = s.route;
      rows.push(row);
    }
    rows.sort((a, b) => b.runs - a.runs || a.flow.localeCompare(b.flow));
    const { rejected: _r, ...whole } = figures(total, to - from);
    return { from, to, stepMs, points, total: whole, rows, precision: 'Latencies are read from histograms with bins 19% apart, within about a tenth of the exact value' };
  }

  /** Runs per second and errors of each integration over the last five minutes, 10 s a point. */
  sparklines(now = Date.now()): Sparklines {
    const to = Math.floor(now / SPARK_STEP_MS) * SPARK_STEP_MS + SPARK_STEP_MS;
    const n = SPARK_WINDOW_MS / SPARK_STEP_MS;
    const byIntegration: Sparklines['byIntegration'] = {};
    for (const s of this.series.values()) {
      const line = (byIntegration[s.integration] ??= { perSecond: new Array<number>(n).fill(0), errors: new Array<number>(n).fill(0) });
      for (let i = 0; i < n; i++) {
        const b = s.tiers[1].bucket(to - (n - i) * SPARK_STEP_MS, false);
        if (!b) continue;
        line.perSecond[i] += b.runs / (SPARK_STEP_MS / 1000);
        line.errors[i] += b.errors;
      }
    }
    return { stepMs: SPARK_STEP_MS, to, byIntegration };
  }

  private count(run: RunSummary, by: 1 | -1): void {
    let s = this.byName.get(run.integration)?.get(run.flow)?.get(run.route);
    if (!s) {
      const key = `${run.integration}\u0000${run.flow}\u0000${run.route ?? ''}`;
      s = this.series.get(key);
      if (!s) {
        if (by < 0) return;
        s = { integration: run.integration, flow: run.flow, route: run.route, tiers: TIERS.map(([step, keep]) => new Tier(step, keep)) };
        this.series.set(key, s);
      }
      let flows = this.byName.get(run.integration);
      if (!flows) this.byName.set(run.integration, (flows = new Map()));
      let routes = flows.get(run.flow);
      if (!routes) flows.set(run.flow, (routes = new Map()));
      routes.set(run.route, s);
    }
    const error = run.outcome === 'failed' || (run.status ?? 0) >= 500 ? 1 : 0;
    const rejected = run.outcome === 'rejected' ? 1 : 0;
    const bin = binOf(run.durationMs);
    for (const tier of s.tiers) {
      const b = tier.bucket(run.startedAt, by > 0);
      if (!b) continue;
      b.runs += by;
      b.errors += by * error;
      b.rejected += by * rejected;
      b.hist[bin] += by;
    }
  }
}

type Sum = Bucket;

function newSum(): Sum {
  return { runs: 0, errors: 0, rejected: 0, hist: new Uint32Array(BINS) };
}

function addInto(sum: Sum, b: Bucket | undefined): void {
  if (!b || b.runs === 0) return;
  sum.runs += b.runs;
  sum.errors += b.errors;
  sum.rejected += b.rejected;
  for (let i = 0; i < BINS; i++) sum.hist[i] += b.hist[i];
}

function figures(sum: Sum, spanMs: number): Omit<MetricPoint, 'at'> {
  const out: Omit<MetricPoint, 'at'> = { runs: sum.runs, perSecond: sum.runs / (spanMs / 1000), errorRate: sum.runs > 0 ? sum.errors / sum.runs : 0, rejected: sum.rejected };
  if (sum.runs > 0) {
    out.p50 = percentile(sum.hist, sum.runs, 0.5);
    out.p95 = percentile(sum.hist, sum.runs, 0.95);
    out.p99 = percentile(sum.hist, sum.runs, 0.99);
  }
  return out;
}
