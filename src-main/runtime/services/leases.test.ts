import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
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

async function platform(): Promise<PlatformServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flow-leases-'));
  dirs.push(dataDir);
  const server = await startPlatformServer({ dataDir });
  cleanups.push(() => server.close());
  return server;
}

async function services(p: PlatformServer, instanceId: string): Promise<AssembledServices> {
  const s = await createApiServices(apiEnv(p, { instanceId }), createLogger({ sinks: [] }));
  cleanups.push(() => s.close());
  return s;
}

describe('leases', () => {
  it('renews about three times per TTL while held, and frees the name on release', async () => {
    const p = await platform();
    const a = await services(p, 'a');
    const b = await services(p, 'b');
    const renewals: PlatformEvent[] = [];
    const stop = p.events.subscribe((e) => e.type === 'lease.renew' && renewals.push(e));
    const lease = await a.leases.acquire('report', 1500);
    expect(lease).toBeDefined();
    await new Promise((r) => setTimeout(r, 2300));
    stop();
    // Held past its TTL because it was renewed, every ~500 ms.
    expect(await b.leases.acquire('report', 1500)).toBeUndefined();
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    expect(lease!.lost.aborted).toBe(false);
    await lease!.release();
    expect(await b.leases.acquire('report', 1500)).toBeDefined();
  });

  it('gives the claim up when a renewal is refused (the claim is gone)', async () => {
    const p = await platform();
    const a = await services(p, 'a');
    const lease = await a.leases.acquire('job', 1200);
    // Someone releases the claim behind the holder's back.
    await fetch(`${p.url}/v1/leases/${encodeURIComponent(lease!.leaseId)}/release`, { method: 'POST', headers: { authorization: `Bearer ${p.token}` } });
    await until(() => lease!.lost.aborted, 2000, 'the claim to be given up');
    expect((lease!.lost.reason as Error).message).toMatch(/lease job lost: the platform refused the renewal \(404\)/);
  });

  it('keeps retrying a renewal the platform cannot answer, and gives the claim up once the TTL passed', async () => {
    const p = await platform();
    const a = await services(p, 'a');
    const lease = await a.leases.acquire('job', 1200);
    await p.close();
    const since = Date.now();
    await until(() => lease!.lost.aborted, 3000, 'the claim to expire');
    expect(Date.now() - since).toBeGreaterThanOrEqual(600);
    expect((lease!.lost.reason as Error).message).toMatch(/no renewal succeeded within the TTL/);
  });
});
