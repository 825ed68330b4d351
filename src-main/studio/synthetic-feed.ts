import type { FeedEvent } from '../../shared/feed-events.ts';
import type { LiveFeed } from './live-feed.ts';
import type { RunStore } from './traces/run-store.ts';

export interface SyntheticLoad {
  perSecond: number;
  seconds: number;
}

/**
 * Test-only: pushes made-up trace events through the real feed path at a steady rate, so the UI's
 * frame times can be measured under load. Reachable only when the server runs with
 * FLOW_STUDIO_TEST_HOOKS=1.
 */
export function generateSyntheticTraces(feed: LiveFeed, load: SyntheticLoad): Promise<number> {
  const perSecond = Math.min(Math.max(1, Math.floor(load.perSecond)), 200_000);
  const seconds = Math.min(Math.max(0.1, load.seconds), 60);
  const tickMs = 10;
  const total = Math.round(perSecond * seconds);
  const started = Date.now();
  let sent = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      // Catch up to the schedule so timer jitter does not lower the rate.
      const due = Math.min(total, Math.round(((Date.now() - started) / 1000) * perSecond));
      for (; sent < due; sent++) feed.push(syntheticTrace(sent));
      if (sent >= total) {
        clearInterval(timer);
        resolve(sent);
      }
    }, tickMs);
  });
}

function syntheticTrace(i: number): FeedEvent {
  const now = Date.now();
  return {
    kind: 'trace',
    at: now,
    integration: 'synthetic',
    trace: {
      kind: i % 4 === 3 ? 'run' : 'step',
      flow: 'synthetic-load',
      correlationId: `syn-${i}`,
      runId: `syn-r${Math.floor(i / 4)}`,
      step: `flows.synthetic-load.steps[${i % 4}]`,
      block: 'set',
      startedAt: now,
      durationMs: (i % 7) / 10,
      outcome: i % 50 === 0 ? 'failed' : 'completed',
    },
  };
}

const ROUTES = ['/orders/{id}', '/orders', '/webhooks/billing'];

/**
 * Test-only: stores made-up finished runs at a steady rate through the run store (so the charts,
 * the run list and studio.db see them as they see real ones) and sends each to the live feed, so
 * the Charts view can be measured under load. Latencies spread from under a millisecond to ~80 ms;
 * one run in 50 fails with a 500. Reachable only when the server runs with FLOW_STUDIO_TEST_HOOKS=1.
 */
export function generateSyntheticRuns(feed: LiveFeed, store: RunStore, load: SyntheticLoad): Promise<number> {
  const perSecond = Math.min(Math.max(1, Math.floor(load.perSecond)), 20_000);
  const seconds = Math.min(Math.max(0.1, load.seconds), 60);
  const total = Math.round(perSecond * seconds);
  const started = Date.now();
  const tag = started.toString(36);
  let sent = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.round(((Date.now() - started) / 1000) * perSecond));
      for (; sent < due; sent++) {
        const now = Date.now();
        const failed = sent % 50 === 0;
        const durationMs = Math.round((0.3 + ((sent * 7919) % 1000) ** 2 / 12_500) * 1000) / 1000;
        const runId = `load-${tag}-${sent}`;
        store.addSummary({
          runId,
          integration: 'load',
          flow: sent % 3 === 2 ? 'receive-webhook' : 'orders',
          route: ROUTES[sent % 3],
          method: 'POST',
          status: failed ? 500 : 200,
          correlationId: runId,
          outcome: failed ? 'failed' : 'completed',
          startedAt: now,
          durationMs,
          steps: 2,
        });
        feed.push({ kind: 'trace', at: now, integration: 'load', trace: { kind: 'run', flow: 'orders', correlationId: runId, runId, startedAt: now, durationMs, outcome: failed ? 'failed' : 'completed' } });
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve(sent);
      }
    }, 10);
  });
}
