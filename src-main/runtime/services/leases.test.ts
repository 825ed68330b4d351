import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock, type Clock } from '../../../shared/clock.ts';
import { startPlatformServer, type PlatformEvent, type PlatformServer } from '../../platform/index.ts';
import { createLogger } from '../core/logger.ts';
import { createApiServices } from './api-services.ts';
import type { AssembledServices } from './assemble-services.ts';
import { apiEnv, until } from './testing/runtime-on-platform.ts';

const dirs: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function platform(clock?: Clock): Promise<PlatformServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flow-leases-'));
  dirs.push(dataDir);
  const server = await startPlatformServer({ dataDir, clock });
  cleanups.push(() => server.close());
  return server;
}

async function services(p: PlatformServer, instanceId: string, clock?: Clock): Promise<AssembledServices> {
  const s = await createApiServices(apiEnv(p, { instanceId }), createLogger({ sinks: [] }), { clock });
  cleanups.push(() => s.close());
  return s;
}

describe('leases', () => {
  it('renews about three times per TTL while held, and frees the name on release', async () => {
    // Platform and runtime share a clock the test moves: renewals come at 500 ms steps of it.
    const clock = new ManualClock();
    const p = await platform(clock);
    const a = await services(p, 'a', clock);
    const b = await services(p, 'b', clock);
    const renewals: PlatformEvent[] = [];
    const stop = p.events.subscribe((e) => e.type === 'lease.renew' && renewals.push(e));
    const lease = await a.leases.acquire('report', 1500);
    expect(lease).toBeDefined();
    for (let n = 1; n <= 4; n++) {
      await clock.advance(500);
      await until(() => renewals.length >= n, 5000, `renewal ${n}`);
    }
    stop();
    // Held past its TTL (2 s of the clock went by) because it was renewed, every 500 ms.
    expect(await b.leases.acquire('report', 1500)).toBeUndefined();
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    expect(lease!.lost.aborted).toBe(false);
    await lease!.release();
    expect(await b.leases.acquire('report', 1500)).toBeDefined();
  });

  it('gives the claim up when a renewal is refused (the claim is gone)', async () => {
    const clock = new ManualClock();
    const p = await platform(clock);
    const a = await services(p, 'a', clock);
    const lease = await a.leases.acquire('job', 1200);
    // Someone releases the claim behind the holder's back.
    await fetch(`${p.url}/v1/leases/${encodeURIComponent(lease!.leaseId)}/release`, { method: 'POST', headers: { authorization: `Bearer ${p.token}` } });
    expect(lease!.lost.aborted).toBe(false);
    await clock.advance(400); // the first renewal, a third of the TTL in
    await until(() => lease!.lost.aborted, 10_000, 'the claim to be given up');
    expect((lease!.lost.reason as Error).message).toMatch(/lease job lost: the platform refused the renewal \(404\)/);
  });

  it('keeps retrying a renewal the platform cannot answer, and gives the claim up once the TTL passed', async () => {
    const clock = new ManualClock();
    const p = await platform(clock);
    const a = await services(p, 'a', clock);
    const grantedAt = clock.now();
    const lease = await a.leases.acquire('job', 1200);
    let lostAt: number | undefined;
    lease!.lost.addEventListener('abort', () => (lostAt = clock.now()));
    await p.close();
    // Only the holder's renewal timer is left on the clock: fire it, let the failed attempt come
    // back over loopback and set the next one, and so on until the holder gives up.
    for (let attempts = 0; lostAt === undefined && attempts < 50; attempts++) {
      await until(() => clock.pending > 0 || lease!.lost.aborted, 10_000, 'the next renewal attempt');
      if (!lease!.lost.aborted) clock.fireNext();
    }
    expect(lostAt! - grantedAt).toBeGreaterThanOrEqual(1200);
    expect((lease!.lost.reason as Error).message).toMatch(/no renewal succeeded within the TTL/);
  });
});
