import { describe, expect, it } from 'vitest';
import type { HttpExchangeRecord } from '../../runtime/index.ts';
import { RunStore } from '../traces/run-store.ts';
import { CaptureStore } from './capture-store.ts';

const exchange = (n: number, bodyBytes = 0): HttpExchangeRecord => ({
  connector: 'web',
  flow: 'orders',
  route: '/orders',
  method: 'POST',
  target: `/orders?n=${n}`,
  requestHeaders: [['content-type', 'application/json']],
  requestBody: new Uint8Array(bodyBytes),
  status: 200,
  responseHeaders: [],
  responseBody: new Uint8Array(),
  responseBytes: 0,
  startedAt: n,
  durationMs: 1,
  ended: 'finished',
});

describe('the capture store under a long stream of requests', () => {
  it('keeps the newest maxCaptures, newest first, and forgets the rest, across thousands of evictions', () => {
    const store = new CaptureStore(new RunStore(), { maxCaptures: 100 });
    const added = Array.from({ length: 5_000 }, (_, i) => store.add('demo', exchange(i), (t) => t));
    const page = store.query({ limit: 2_000 });
    expect(page.total).toBe(100);
    expect(page.rows.map((r) => r.target)).toEqual(Array.from({ length: 100 }, (_, i) => `/orders?n=${4_999 - i}`));
    expect(store.get(added[4_899].id)).toBeUndefined();
    expect(store.get(added[4_900].id)?.record.target).toBe('/orders?n=4900');
    expect(store.query({ limit: 10, search: 'n=4950' }).rows.map((r) => r.target)).toEqual(['/orders?n=4950']);
  });

  it('drops the oldest when the bodies pass maxBytes, but always keeps the newest', () => {
    const store = new CaptureStore(new RunStore(), { maxBytes: 10_000 });
    for (let i = 0; i < 3_000; i++) store.add('demo', exchange(i, 3_000), (t) => t);
    // 3,000 body bytes plus 512 of overhead each: two fit in 10,000 bytes.
    expect(store.query({ limit: 10 }).rows.map((r) => r.target)).toEqual(['/orders?n=2999', '/orders?n=2998']);
    const big = store.add('demo', exchange(3_000, 50_000), (t) => t);
    expect(store.query({ limit: 10 }).rows.map((r) => r.id)).toEqual([big.id]);
    store.clear();
    expect(store.query({ limit: 10 }).total).toBe(0);
    store.add('demo', exchange(1), (t) => t);
    expect(store.query({ limit: 10 }).total).toBe(1);
  });
});
