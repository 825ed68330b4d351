import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { RunMetrics } from './run-metrics.ts';

const NOW = 1_700_000_000_000;
const run = (i: number, extra: Partial<RunSummary> = {}): RunSummary => ({
  runId: `r${i}`,
  integration: 'shop',
  flow: 'orders',
  route: '/orders',
  correlationId: `c${i}`,
  outcome: 'completed',
  status: 200,
  startedAt: NOW - 60_000 + (i % 60) * 1_000,
  durationMs: 1 + (i % 100),
  steps: 1,
  ...extra,
});

describe('run metrics', () => {
  it('gives runs per second, p50/p95/p99 within a tenth, and the error rate, per flow and route', () => {
    const m = new RunMetrics();
    // 6,000 runs over the last minute with latencies 1..100 ms; every 20th failed, every 50th answered 503.
    for (let i = 0; i < 6_000; i++) m.add(run(i, i % 20 === 0 ? { outcome: 'failed', status: 500 } : i % 50 === 1 ? { status: 503 } : {}));
    m.add(run(1, { flow: 'ship', route: '/ship' }));
    const series = m.query({ windowMs: 5 * 60_000 }, NOW);
    expect(series.stepMs).toBe(5_000);
    expect(series.points).toHaveLength(60);
    expect(series.total.runs).toBe(6_001);
    const orders = series.rows[0];
    expect(orders).toMatchObject({ flow: 'orders', route: '/orders', runs: 6_000 });
    expect(orders.errorRate).toBeCloseTo((300 + 120) / 6_000, 3);
    for (const [p, exact] of [
      [orders.p50, 50],
      [orders.p95, 95],
      [orders.p99, 99],
    ] as const) {
      expect(Math.abs(p! - exact) / exact).toBeLessThan(0.1);
    }
    // A step of the last minute holds 5 s of runs: 500 of them, 100 a second.
    const busy = series.points.filter((p) => p.runs > 0);
    expect(busy.length).toBe(12);
    expect(busy[0].perSecond).toBeCloseTo(100, 0);
    expect(m.query({ windowMs: 5 * 60_000, flow: 'ship' }, NOW).total.runs).toBe(1);
  });

  it('moves a run to its route and status once its request links to it, and reads an hour and a day', () => {
    const m = new RunMetrics();
    const before = run(1, { route: undefined, status: undefined });
    m.add(before);
    m.remove(before);
    m.add(run(1, { status: 502 }));
    const hour = m.query({ windowMs: 60 * 60_000 }, NOW);
    expect(hour.stepMs).toBe(60_000);
    expect(hour.rows).toEqual([expect.objectContaining({ route: '/orders', runs: 1, errorRate: 1 })]);
    expect(m.query({ windowMs: 24 * 60 * 60_000 }, NOW).total.runs).toBe(1);
  });

  it('draws sparklines of runs per second per integration over five minutes', () => {
    const m = new RunMetrics();
    for (let i = 0; i < 600; i++) m.add(run(i));
    const lines = m.sparklines(NOW);
    expect(lines.byIntegration.shop.perSecond).toHaveLength(30);
    expect(lines.byIntegration.shop.perSecond.reduce((a, b) => a + b, 0) * 10).toBeCloseTo(600, 0);
  });
});
