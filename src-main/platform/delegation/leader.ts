import { badRequest, notFound } from '../http/api-error.ts';
import { campaign, resign } from '../../../shared/platform-api/leader.ts';
import { implement } from '../http/contract-route.ts';
import { sendEmpty, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import { claimBody, grantFields, iso } from './leases.ts';
import type { PlatformContext } from './platform-context.ts';

/**
 * Leader election (§3.2, §4.2): one endpoint for the first claim and its renewal. A candidate
 * is identified by the `candidate` string it sends; the holder campaigning again extends its
 * claim (same leaseId and fencing token), anyone else follows until the holder's TTL passes.
 */
export function leaderRoutes(p: PlatformContext): Route[] {
  const { leases, events } = p;
  const enabled = p.features.leaderElection.supported;
  const { minTtlSeconds, maxTtlSeconds } = p.features.leases;
  const defaultTtl = p.features.leaderElection.leaseTtlSeconds;
  const binding = { capability: 'leaderElection', enabled };

  return [
    implement(campaign, binding, async (ctx) => {
      const { candidate, ttlSeconds = defaultTtl } = await ctx.json();
      const ttlMs = Math.max(Math.min(ttlSeconds, maxTtlSeconds), minTtlSeconds) * 1000;
      const outcome = await leases.acquire('leader', ctx.params.key, candidate, ttlMs, true);
      if (!outcome.granted) {
        sendJson(ctx.res, 200, { leader: false, currentLeader: outcome.current.holder, expiresAt: iso(outcome.current.expiresAt) });
        return;
      }
      const { claim } = outcome;
      if (events.active) {
        if (outcome.renewed) events.emit({ type: 'lease.renew', at: p.clock.now(), kind: 'leader', name: claim.name, holder: claim.holder, leaseId: claim.leaseId, expiresAt: claim.expiresAt });
        else events.emit({ type: 'lease.grant', at: p.clock.now(), ...grantFields(claim), previousHolder: outcome.previousHolder });
      }
      sendJson(ctx.res, 200, { leader: true, ...claimBody(claim) });
    }),
    implement(resign, binding, async (ctx) => {
      const { leaseId, candidate } = await ctx.json();
      const { key } = ctx.params;
      if (!leaseId && !candidate) throw badRequest('missing_field', 'the request body needs "leaseId" (from the campaign response) or "candidate"');
      const holder = await leases.holderOf('leader', key);
      const mine = holder && (leaseId ? holder.leaseId === leaseId : holder.holder === candidate);
      if (!holder || !mine) {
        throw notFound('not_leader', `${leaseId ? `lease ${leaseId}` : `candidate "${candidate}"`} does not lead "${key}" (${holder ? `"${holder.holder}" does` : 'nobody does'}): nothing to resign`);
      }
      await leases.release('leader', holder.leaseId);
      if (events.active) events.emit({ type: 'lease.release', at: p.clock.now(), kind: 'leader', name: key, holder: holder.holder, leaseId: holder.leaseId });
      sendEmpty(ctx.res, 204);
    }),
  ];
}
