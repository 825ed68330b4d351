import type { FeedOutcome } from '../../../shared/feed-events.ts';
import type { RunStore } from './run-store.ts';

const FLOWS = ['price-order', 'receive-webhook', 'job-progress', 'catalog-proxy', 'notes-webhook'];
const ROUTES = ['/orders/price', '/webhooks/billing', '/jobs/{job}/progress', '/catalog/{id}', '/webhooks/notes'];
const CUSTOMERS = ['ana', 'bo', 'chen', 'dara', 'eli', 'fatima', 'goran', 'hana'];

/**
 * Test-only: fills the run store with made-up finished runs (summaries and a request body
 * text), so the Traces panel can be measured with 100,000 stored runs. Reachable only when the
 * server runs with FLOW_STUDIO_TEST_HOOKS=1.
 */
export function seedRuns(store: RunStore, count: number): { stored: number; tookMs: number } {
  const t0 = performance.now();
  const n = Math.min(Math.max(0, Math.floor(count)), 200_000);
  const now = Date.now() - n;
  for (let i = 0; i < n; i++) {
    const f = i % FLOWS.length;
    const outcome: FeedOutcome = i % 23 === 0 ? 'failed' : i % 31 === 0 ? 'dropped' : 'completed';
    const customer = `${CUSTOMERS[i % CUSTOMERS.length]}-${i}`;
    store.addSummary(
      {
        runId: `seed-${i}`,
        integration: 'seeded',
        flow: FLOWS[f],
        correlationId: `seed-c${i}`,
        route: ROUTES[f],
        method: 'POST',
        status: outcome === 'failed' ? 500 : outcome === 'dropped' ? 204 : 200,
        outcome,
        startedAt: now + i,
        durationMs: (i % 97) / 10,
        steps: 3 + (i % 4),
        ...(outcome === 'failed' ? { error: `seeded failure ${i}` } : {}),
      },
      JSON.stringify({ customer, items: [{ sku: `sku-${i % 1000}`, quantity: 1 + (i % 5) }] }),
    );
  }
  return { stored: store.size, tookMs: performance.now() - t0 };
}
