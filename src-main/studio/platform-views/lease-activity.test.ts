import { describe, expect, it } from 'vitest';
import { LeaseActivity } from './lease-activity.ts';
import { RunLinks } from './run-links.ts';

const limits = { minutes: 10, maxEvents: 1_000 };
const grant = (at: number, leaseId: string, holder: string, expiresAt: number, previousHolder?: string) =>
  ({ type: 'lease.grant', at, kind: 'lease', name: 'report', holder, leaseId, fencingToken: Number(leaseId[0]), expiresAt, previousHolder }) as const;

describe('lease activity', () => {
  it('records an expiry when a claim lapses unrenewed, and a takeover when another holder then gets the name', () => {
    const leases = new LeaseActivity(limits, limits, new RunLinks());
    leases.handle(grant(1_000, '1-a', 'worker-1', 6_000));
    leases.tick(7_000, []);
    leases.handle(grant(8_000, '2-b', 'worker-2', 13_000, 'worker-1'));
    const view = leases.view({}, () => [], 9_000);
    expect(view.history.map((e) => [e.action, e.holder, e.at])).toEqual([
      ['grant', 'worker-1', 1_000],
      ['expire', 'worker-1', 6_000],
      ['takeover', 'worker-2', 8_000],
    ]);
  });

  it('records no expiry for a released claim', () => {
    const leases = new LeaseActivity(limits, limits, new RunLinks());
    leases.handle(grant(1_000, '1-a', 'worker-1', 6_000));
    leases.handle({ type: 'lease.release', at: 2_000, kind: 'lease', name: 'report', holder: 'worker-1', leaseId: '1-a' });
    leases.tick(7_000, []);
    expect(leases.view({}, () => [], 8_000).history.map((e) => e.action)).toEqual(['grant', 'release']);
  });

  it('shows the holders of an earlier moment from its snapshots and the events since', () => {
    const leases = new LeaseActivity(limits, limits, new RunLinks());
    const claim = { kind: 'lease' as const, name: 'report', leaseId: '1-a', holder: 'w', fencingToken: 1, ttlMs: 5_000, grantedAt: 1_000, expiresAt: 6_000 };
    leases.tick(2_000, [claim]);
    leases.tick(3_000, []);
    expect(leases.view({ at: 2_500 }, () => [], 9_000).holders.map((h) => h.leaseId)).toEqual(['1-a']);
    expect(leases.view({ at: 3_500 }, () => [], 9_000).holders).toEqual([]);
    leases.handle(grant(3_600, '2-b', 'w2', 9_000));
    expect(leases.view({ at: 3_700 }, () => [], 4_000).holders.map((h) => [h.leaseId, h.holder, h.ttlMs])).toEqual([['2-b', 'w2', 5_400]]);
  });
});
