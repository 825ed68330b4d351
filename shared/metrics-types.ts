/**
 * Throughput, latency and errors of the studio's flows over time, from the stored runs: what the
 * Charts view draws and the integration list's sparklines. Plain data only.
 */

/** The windows a chart looks back over. */
export const METRIC_WINDOWS = [5 * 60_000, 15 * 60_000, 60 * 60_000, 6 * 60 * 60_000, 24 * 60 * 60_000] as const;
export type MetricWindow = (typeof METRIC_WINDOWS)[number];

export interface MetricsQuery {
  integration?: string;
  flow?: string;
  /** The route pattern, e.g. `/items/{id}`. */
  route?: string;
  /** How far back, one of METRIC_WINDOWS (ms). */
  windowMs: number;
}

/** One step of a series. Latencies are in ms; absent where the step had no runs. */
export interface MetricPoint {
  /** Start of the step, epoch ms. */
  at: number;
  runs: number;
  perSecond: number;
  /** Failed runs and runs answered 5xx, over all runs of the step (0–1). */
  errorRate: number;
  /** Requests a verification step turned away. */
  rejected: number;
  p50?: number;
  p95?: number;
  p99?: number;
}

/** One flow (and route) over the whole window. */
export interface MetricRow {
  integration: string;
  flow: string;
  route?: string;
  runs: number;
  perSecond: number;
  errorRate: number;
  p50?: number;
  p95?: number;
  p99?: number;
}

export interface MetricsSeries {
  from: number;
  to: number;
  stepMs: number;
  points: MetricPoint[];
  /** The whole window, for the headline numbers. */
  total: Omit<MetricRow, 'integration' | 'flow' | 'route'>;
  /** Every flow and route with runs in the window, busiest first. */
  rows: MetricRow[];
  /**
   * Latencies are read from histograms with bins 19% apart: a percentile is within about a tenth
   * of the exact value.
   */
  precision: string;
}

/** Runs per second of each integration over the last minutes, oldest first, for sparklines. */
export interface Sparklines {
  stepMs: number;
  to: number;
  byIntegration: Record<string, { perSecond: number[]; errors: number[] }>;
}
