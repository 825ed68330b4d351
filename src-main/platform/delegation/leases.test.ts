import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ manualClock: true, features: { leases: { minTtlSeconds: 1, maxTtlSeconds: 60 } } });
});
afterAll(() => platform.close());

interface Acquired {
  acquired: boolean;
  leaseId?: string;
  expiresAt?: string;
  fencingToken?: number;
  ttlSeconds?: number;
  holder?: string;
}
const acquire = async (name: string, holder: string, ttlSeconds = 30): Promise<Acquired> => {
  const res = await platform.call('POST', '/v1/leases/acquire', { json: { name, holder, ttlSeconds } });
  expect(res.status).toBe(200);
  return res.json as Acquired;
};
// TTLs pass on the server's clock (moved, not waited for, on SQLite). The suites that move it
// run their tests one after another: a move in one test must not age another's claims.
const elapse = (ms: number) => platform.elapse(ms);
/** The server's time: the moved clock on SQLite, the real one on PostgreSQL. */
const now = () => platform.clock?.now() ?? Date.now();

describe('leases (§3.1 state table over HTTP)', () => {
  it('grants a free name with leaseId, expiresAt and a fencing token in both', async () => {
    const before = now();
    const lease = await acquire('free-name', 'a', 30);
    expect(lease.acquired).toBe(true);
    expect(lease.leaseId).toMatch(new RegExp(`^${lease.fencingToken}-[0-9a-f]+$`));
    const expires = Date.parse(lease.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 29_000);
    expect(expires).toBeLessThanOrEqual(now() + 31_000);
  });

  it('answers acquired false with the holder while the TTL holds, without blocking', async () => {
    await acquire('held-name', 'a', 30);
    const started = Date.now();
    const other = await acquire('held-name', 'b', 30);
    expect(other).toMatchObject({ acquired: false, holder: 'a' });
    expect(Date.now() - started).toBeLessThan(2500); // far below the 30 s TTL it would block for
    // Not re-entrant: the holder itself extends with renew, not acquire.
    expect((await acquire('held-name', 'a', 30)).acquired).toBe(false);
  });

  it('lets another caller take the name only after the TTL passed without renewal', async () => {
    const first = await acquire('takeover', 'a', 3); // outlives a slow next request on PostgreSQL's real clock
    expect((await acquire('takeover', 'b', 1)).acquired).toBe(false);
    await elapse(3100);
    const second = await acquire('takeover', 'b', 1);
    expect(second.acquired).toBe(true);
    expect(second.fencingToken!).toBeGreaterThan(first.fencingToken!);
  });

  // A 3 s TTL: on PostgreSQL these seconds pass in real time, and the renewed claim must outlive
  // the requests a loaded machine is slow to answer (a 1 s TTL left 400 ms for them).
  it('renews a live claim (204) and pushes the deadline out past the original TTL', async () => {
    const lease = await acquire('renewed', 'a', 3);
    await elapse(1600);
    expect((await platform.call('POST', `/v1/leases/${lease.leaseId}/renew`, { json: { ttlSeconds: 3 } })).status).toBe(204);
    await elapse(1600);
    // 3.2 s after the grant: without the renew the TTL would have passed.
    expect(await acquire('renewed', 'b', 1)).toMatchObject({ acquired: false, holder: 'a' });
  });

  it('renews by the claim\'s own TTL when the request names none', async () => {
    const lease = await acquire('renew-default', 'a', 3);
    await elapse(1600);
    expect((await platform.call('POST', `/v1/leases/${lease.leaseId}/renew`)).status).toBe(204);
    await elapse(1600);
    expect((await acquire('renew-default', 'b', 1)).acquired).toBe(false);
  });

  it('refuses renewal of an absent claim with 404 and of an expired one with 409', async () => {
    const absent = await platform.call('POST', '/v1/leases/1-deadbeef/renew', { json: {} });
    expect(absent.status).toBe(404);
    expect(absent.code).toBe('lease_not_found');
    const lease = await acquire('expired-renew', 'a', 1);
    await elapse(1100);
    const expired = await platform.call('POST', `/v1/leases/${lease.leaseId}/renew`, { json: {} });
    expect(expired.status).toBe(409);
    expect(expired.code).toBe('lease_expired');
  });

  it('refuses renewal by the old holder once another caller took the name over', async () => {
    const old = await acquire('taken-over', 'a', 1);
    await elapse(1100);
    await acquire('taken-over', 'b', 30);
    const res = await platform.call('POST', `/v1/leases/${old.leaseId}/renew`, { json: {} });
    expect([404, 409]).toContain(res.status);
    expect(await acquire('taken-over', 'c')).toMatchObject({ acquired: false, holder: 'b' });
  });

  it('frees the name on release (204) and answers 404 on releasing a gone claim', async () => {
    const lease = await acquire('released', 'a', 30);
    expect((await platform.call('POST', `/v1/leases/${lease.leaseId}/release`)).status).toBe(204);
    expect((await acquire('released', 'b', 30)).acquired).toBe(true);
    const again = await platform.call('POST', `/v1/leases/${lease.leaseId}/release`);
    expect(again.status).toBe(404);
  });

  it('clamps the TTL into the declared bounds', async () => {
    const short = await acquire('clamp-short', 'a', 0);
    expect(short.ttlSeconds).toBe(1);
    const long = await acquire('clamp-long', 'a', 10_000);
    expect(long.ttlSeconds).toBe(60);
    // On PostgreSQL the database's clock (microseconds, then the ISO string's milliseconds) sets
    // expiresAt and the test reads Date.now() (milliseconds, truncated): 1 ms apart at most.
    const resolution = platform.clock ? 0 : 1;
    expect(Date.parse(long.expiresAt!) - now()).toBeLessThanOrEqual(60_000 + resolution);
  });

  it('uses defaultTtlSeconds when the request names no TTL', async () => {
    const res = await platform.call('POST', '/v1/leases/acquire', { json: { name: 'default-ttl', holder: 'a' } });
    expect((res.json as Acquired).ttlSeconds).toBe(platform.server.features.leases.defaultTtlSeconds);
  });

  it('refuses an acquire without a name with 400 naming the field', async () => {
    const res = await platform.call('POST', '/v1/leases/acquire', { json: { holder: 'a' } });
    expect(res.status).toBe(400);
    expect(res.message).toContain('"name"');
  });
});

interface Campaign {
  leader: boolean;
  leaseId?: string;
  expiresAt?: string;
  fencingToken?: number;
  currentLeader?: string;
}
const campaign = async (key: string, candidate: string, ttlSeconds?: number): Promise<Campaign> => {
  const res = await platform.call('POST', `/v1/leader/${encodeURIComponent(key)}/campaign`, { json: { candidate, ttlSeconds } });
  expect(res.status).toBe(200);
  return res.json as Campaign;
};

describe('leader election (§3.2 state table over HTTP)', () => {
  it('makes the first candidate on a free key the leader', async () => {
    const c = await campaign('jobs/nightly', 'instance-a');
    expect(c.leader).toBe(true);
    expect(c.leaseId).toBeTruthy();
    expect(Date.parse(c.expiresAt!) - now()).toBeGreaterThan(10_000); // default leaseTtlSeconds 15
  });

  it('extends the holder\'s claim when it campaigns again, keeping leaseId and fencing token', async () => {
    const first = await campaign('extend', 'a', 2);
    await elapse(50);
    const again = await campaign('extend', 'a', 2);
    expect(again.leader).toBe(true);
    expect(again.leaseId).toBe(first.leaseId);
    expect(again.fencingToken).toBe(first.fencingToken);
    expect(Date.parse(again.expiresAt!)).toBeGreaterThan(Date.parse(first.expiresAt!));
  });

  it('answers leader false with currentLeader while another holds an unexpired claim', async () => {
    await campaign('contested', 'a', 30);
    expect(await campaign('contested', 'b', 30)).toMatchObject({ leader: false, currentLeader: 'a' });
  });

  it('hands leadership to another candidate once the holder\'s TTL expired', async () => {
    // 3 s claims: each must outlive the next request, which a loaded machine answers slowly on
    // PostgreSQL's real clock.
    await campaign('expiring', 'a', 3);
    expect((await campaign('expiring', 'b', 3)).leader).toBe(false);
    await elapse(3100);
    expect(await campaign('expiring', 'b', 3)).toMatchObject({ leader: true });
    expect(await campaign('expiring', 'a', 3)).toMatchObject({ leader: false, currentLeader: 'b' });
  });

  it('frees the key when the holder resigns (204); resigning when not holder is 404', async () => {
    const c = await campaign('resign', 'a', 30);
    expect((await platform.call('POST', '/v1/leader/resign/resign', { json: { candidate: 'b' } })).status).toBe(404);
    expect((await platform.call('POST', '/v1/leader/resign/resign', { json: { leaseId: c.leaseId } })).status).toBe(204);
    expect((await campaign('resign', 'b', 30)).leader).toBe(true);
    expect((await platform.call('POST', '/v1/leader/resign/resign', { json: { candidate: 'a' } })).status).toBe(404);
  });

  it('keeps leader keys and lease names apart', async () => {
    await campaign('shared-name', 'leader-a', 30);
    expect((await acquire('shared-name', 'lease-b', 30)).acquired).toBe(true);
  });
});
