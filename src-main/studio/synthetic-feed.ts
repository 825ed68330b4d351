import type { FeedEvent } from '../../shared/feed-events.ts';
import type { LiveFeed } from './live-feed.ts';

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
