import { conflict, notFound } from '../http/api-error.ts';
import { acquireLease, releaseLease, renewLease } from '../../../shared/platform-api/leases.ts';
import { implement } from '../http/contract-route.ts';
import { sendEmpty, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { LeaseClaim } from '../store/lease-store.ts';
import type { PlatformContext } from './platform-context.ts';
import { runOf } from './run-of.ts';

/**
 * Leases (§3.1, §4.2): a claim on a name for a TTL, clamped into the declared bounds. Acquire
 * never blocks and never re-enters: while a claim is live every other acquire, the holder's
 * own included, answers `acquired: false`; the holder extends its claim with renew.
 */
export function leaseRoutes(p: PlatformContext): Route[] {
  const { leases, events } = p;
  const { supported: enabled, minTtlSeconds, maxTtlSeconds, defaultTtlSeconds } = p.features.leases;
  // A TTL is clamped into [minTtlSeconds, maxTtlSeconds].
  const ttlMs = (seconds: number): number => Math.max(Math.min(seconds, maxTtlSeconds), minTtlSeconds) * 1000;
  const binding = { capability: 'leases', enabled };

  return [
    implement(acquireLease, binding, async (ctx) => {
      const { name, holder = 'anonymous', ttlSeconds = defaultTtlSeconds } = await ctx.json();
      const outcome = await leases.acquire('lease', name, holder, ttlMs(ttlSeconds), false);
      if (!outcome.granted) {
        sendJson(ctx.res, 200, { acquired: false, holder: outcome.current.holder, expiresAt: iso(outcome.current.expiresAt) });
        return;
      }
      const { claim } = outcome;
      if (events.active) events.emit({ type: 'lease.grant', at: p.clock.now(), ...grantFields(claim), previousHolder: outcome.previousHolder, ...runOf(ctx.req) });
      sendJson(ctx.res, 200, { acquired: true, ...claimBody(claim) });
    }),
    implement(renewLease, binding, async (ctx) => {
      const { ttlSeconds } = await ctx.json();
      const { leaseId } = ctx.params;
      const outcome = await leases.renew('lease', leaseId, ttlSeconds === undefined ? undefined : ttlMs(ttlSeconds));
      if (!outcome.ok && outcome.reason === 'expired') {
        throw conflict('lease_expired', `lease ${leaseId} on "${outcome.claim.name}" expired at ${iso(outcome.claim.expiresAt)}; acquire the name again`);
      }
      if (!outcome.ok) throw notFound('lease_not_found', `no lease ${leaseId}: it was released, or expired and was taken over; acquire the name again`);
      const { claim } = outcome;
      if (events.active) events.emit({ type: 'lease.renew', at: p.clock.now(), kind: 'lease', name: claim.name, holder: claim.holder, leaseId, expiresAt: claim.expiresAt });
      sendEmpty(ctx.res, 204);
    }),
    implement(releaseLease, binding, async (ctx) => {
      await ctx.json();
      const claim = await leases.release('lease', ctx.params.leaseId);
      if (!claim) throw notFound('lease_not_found', `no live lease ${ctx.params.leaseId} (already released or expired): nothing to release`);
      if (events.active) events.emit({ type: 'lease.release', at: p.clock.now(), kind: 'lease', name: claim.name, holder: claim.holder, leaseId: claim.leaseId, ...runOf(ctx.req) });
      sendEmpty(ctx.res, 204);
    }),
  ];
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export function claimBody(claim: LeaseClaim): Record<string, unknown> {
  return { leaseId: claim.leaseId, expiresAt: iso(claim.expiresAt), fencingToken: claim.fencingToken, ttlSeconds: claim.ttlMs / 1000 };
}

export function grantFields(claim: LeaseClaim) {
  return { kind: claim.kind, name: claim.name, holder: claim.holder, leaseId: claim.leaseId, fencingToken: claim.fencingToken, expiresAt: claim.expiresAt };
}
