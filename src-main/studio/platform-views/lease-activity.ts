import type { HistoryWindow, LeaseHistoryEvent, LeaseHolder, LeaseView } from '../../../shared/platform-views.ts';
import type { PlatformEvent, StoredClaim } from '../../platform/index.ts';
import { EventHistory, SnapshotHistory, type HistoryLimits } from './event-history.ts';
import type { RunLinks } from './run-links.ts';

/** A lease event as kept: the run it named (X-Flow-Run-Id), if any, is resolved when shown. */
type LeaseRecord = Omit<LeaseHistoryEvent, 'run'> & { runId?: string };
type LeasePlatformEvent = Extract<PlatformEvent, { type: `lease.${string}` }>;

interface Tracked {
  leaseId: string;
  holder: string;
  kind: LeaseHolder['kind'];
  name: string;
  fencingToken?: number;
  expiresAt: number;
}

const DEFAULT_LIMIT = 500;

/**
 * Leases and leaderships as the studio shows them: holders now (or at a scrubbed moment, from
 * per-second snapshots), and the history of grants, renewals, releases, takeovers and expiries.
 * The platform says nothing when a claim lapses, so an expiry is recorded when its deadline
 * passes unrenewed, or when the next grant takes the name over.
 */
export class LeaseActivity {
  readonly history: EventHistory<LeaseRecord>;
  private readonly snapshots: SnapshotHistory<LeaseHolder[]>;
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    limits: HistoryLimits,
    snapshotLimits: HistoryLimits,
    private readonly links: RunLinks,
  ) {
    this.history = new EventHistory(limits);
    this.snapshots = new SnapshotHistory(snapshotLimits);
  }

  handle(e: LeasePlatformEvent): void {
    const k = key(e.kind, e.name);
    switch (e.type) {
      case 'lease.grant': {
        const previous = this.tracked.get(k);
        if (previous && previous.leaseId !== e.leaseId) this.expire(k, previous);
        const takeover = e.previousHolder !== undefined;
        this.history.push({
          at: e.at,
          action: takeover ? 'takeover' : 'grant',
          kind: e.kind,
          name: e.name,
          holder: e.holder,
          leaseId: e.leaseId,
          fencingToken: e.fencingToken,
          expiresAt: e.expiresAt,
          ...(takeover ? { previousHolder: e.previousHolder } : {}),
          ...(e.runId ? { runId: e.runId } : {}),
        });
        this.tracked.set(k, { leaseId: e.leaseId, holder: e.holder, kind: e.kind, name: e.name, fencingToken: e.fencingToken, expiresAt: e.expiresAt });
        return;
      }
      case 'lease.renew': {
        const t = this.tracked.get(k);
        if (t && t.leaseId === e.leaseId) t.expiresAt = e.expiresAt;
        this.history.push({ at: e.at, action: 'renew', kind: e.kind, name: e.name, holder: e.holder, leaseId: e.leaseId, expiresAt: e.expiresAt });
        return;
      }
      case 'lease.release':
        if (this.tracked.get(k)?.leaseId === e.leaseId) this.tracked.delete(k);
        this.history.push({ at: e.at, action: 'release', kind: e.kind, name: e.name, holder: e.holder, leaseId: e.leaseId, ...(e.runId ? { runId: e.runId } : {}) });
    }
  }

  /** Records the expiries whose deadline has passed; called every tick with the stored claims. */
  tick(now: number, claims: StoredClaim[]): void {
    for (const [k, t] of this.tracked) if (t.expiresAt <= now) this.expire(k, t);
    const holders = claims.filter((c) => c.expiresAt > now).map(holderOf);
    this.snapshots.record(now, this.history.lastSeq, holders, holders.map((h) => `${h.leaseId}@${h.expiresAt}`).join(','));
  }

  /** Holders at `at`: the last snapshot before it with the grants, renewals and releases since replayed. */
  holdersAt(at: number): LeaseHolder[] {
    const snapshot = this.snapshots.at(at);
    const holders = new Map((snapshot?.value ?? []).map((h) => [key(h.kind, h.name), { ...h }]));
    for (const e of this.history.between(snapshot?.seq ?? 0, at)) {
      const k = key(e.kind, e.name);
      if (e.action === 'grant' || e.action === 'takeover') {
        const expiresAt = e.expiresAt ?? at;
        holders.set(k, { kind: e.kind, name: e.name, holder: e.holder, leaseId: e.leaseId, fencingToken: e.fencingToken ?? 0, ttlMs: expiresAt - e.at, grantedAt: e.at, expiresAt });
      } else if (e.action === 'renew') {
        const h = holders.get(k);
        if (h && h.leaseId === e.leaseId && e.expiresAt !== undefined) h.expiresAt = e.expiresAt;
      } else if (holders.get(k)?.leaseId === e.leaseId) holders.delete(k);
    }
    return [...holders.values()].filter((h) => h.expiresAt > at);
  }

  view(query: { at?: number; limit?: number }, claims: () => StoredClaim[], now: number): LeaseView {
    const live = query.at == null || query.at >= now;
    const at = live ? now : query.at!;
    const holders = live ? claims().filter((c) => c.expiresAt > now).map(holderOf) : this.holdersAt(at);
    const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_LIMIT), 2000);
    const history = this.history.newest(limit, live ? undefined : at, () => true).map((e) => this.withRun(e));
    const historyWindow: HistoryWindow = this.history.window(now);
    return { at, live, holders, history, historyWindow };
  }

  private expire(k: string, t: Tracked): void {
    this.tracked.delete(k);
    this.history.push({ at: t.expiresAt, action: 'expire', kind: t.kind, name: t.name, holder: t.holder, leaseId: t.leaseId });
  }

  private withRun(record: LeaseRecord): LeaseHistoryEvent {
    const { runId, ...e } = record;
    if (e.kind !== 'lease' || (e.action !== 'grant' && e.action !== 'takeover' && e.action !== 'release')) return e;
    if (runId) {
      const named = this.links.byRunId(runId, 'holder');
      return named ? { ...e, run: named } : e;
    }
    const { run } = this.links.stepAt(e.at, ['lock'], 'holder');
    return run ? { ...e, run } : e;
  }
}

function holderOf(c: StoredClaim): LeaseHolder {
  return {
    kind: c.kind,
    name: c.name,
    holder: c.holder,
    leaseId: c.leaseId,
    fencingToken: c.fencingToken,
    ttlMs: c.ttlMs,
    grantedAt: c.grantedAt,
    expiresAt: c.expiresAt,
  };
}

const key = (kind: string, name: string): string => `${kind}\0${name}`;
