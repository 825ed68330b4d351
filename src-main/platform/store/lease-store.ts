import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { MetaCounter, type Db } from './database.ts';
import type { LeaseKind } from '../events.ts';
import { systemClock, type Clock } from '../../../shared/clock.ts';

export interface LeaseClaim {
  kind: LeaseKind;
  name: string;
  leaseId: string;
  holder: string;
  fencingToken: number;
  ttlMs: number;
  grantedAt: number;
  expiresAt: number;
}

export type AcquireOutcome =
  | { granted: true; claim: LeaseClaim; renewed: boolean; previousHolder?: string }
  | { granted: false; current: LeaseClaim };

export type RenewOutcome = { ok: true; claim: LeaseClaim } | { ok: false; reason: 'absent' } | { ok: false; reason: 'expired'; claim: LeaseClaim };

/** A claim row as both backends store it (same column names on SQLite and PostgreSQL). */
export interface LeaseRow {
  kind: LeaseKind;
  name: string;
  lease_id: string;
  holder: string;
  fencing: number;
  ttl_ms: number;
  granted_at: number;
  expires_at: number;
}

/**
 * Claims on names with a deadline: leases (§3.1) and leaderships (§3.2), kept apart by kind so
 * a lease and a leader key of the same name never collide. A claim whose deadline passed
 * without renewal is free for the next caller, so a dead holder never blocks a name for good.
 *
 * Every grant takes the next fencing token from a counter that survives restarts; it is the
 * prefix of the lease id, so holders (and the resources they guard) can order themselves.
 */
export class LeaseStore {
  private readonly fencing: MetaCounter;
  private readonly byName: Statement<[string, string]>;
  private readonly byId: Statement<[string]>;
  private readonly upsert: Statement<[string, string, string, string, number, number, number, number]>;
  private readonly extend: Statement<[number, number, string]>;
  private readonly removeById: Statement<[string, string]>;

  constructor(
    db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    const floor = db.prepare('SELECT MAX(fencing) FROM leases').pluck().get() as number | null;
    this.fencing = new MetaCounter(db, 'fencing', floor ?? 0);
    this.byName = db.prepare('SELECT * FROM leases WHERE kind = ? AND name = ?');
    this.byId = db.prepare('SELECT * FROM leases WHERE lease_id = ?');
    this.upsert = db.prepare(
      `INSERT INTO leases (kind, name, lease_id, holder, fencing, ttl_ms, granted_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, name) DO UPDATE SET lease_id = excluded.lease_id, holder = excluded.holder, fencing = excluded.fencing,
         ttl_ms = excluded.ttl_ms, granted_at = excluded.granted_at, expires_at = excluded.expires_at`,
    );
    this.extend = db.prepare('UPDATE leases SET ttl_ms = ?, expires_at = ? WHERE lease_id = ?');
    this.removeById = db.prepare('DELETE FROM leases WHERE lease_id = ? AND kind = ?');
    this.acquire = db.transaction(this.acquire.bind(this));
  }

  /**
   * Grants the name when it is free or its holder's TTL passed. With `sameHolderRenews`
   * (leadership campaigns), the current holder's claim is extended instead of refused.
   */
  acquire(kind: LeaseKind, name: string, holder: string, ttlMs: number, sameHolderRenews: boolean): AcquireOutcome {
    const now = this.clock.now();
    const row = this.byName.get(kind, name) as LeaseRow | undefined;
    if (row && row.expires_at > now) {
      if (!(sameHolderRenews && row.holder === holder)) return { granted: false, current: toClaim(row) };
      this.extend.run(ttlMs, now + ttlMs, row.lease_id);
      return { granted: true, renewed: true, claim: { ...toClaim(row), ttlMs, expiresAt: now + ttlMs } };
    }
    const fencingToken = this.fencing.next();
    this.fencing.persist();
    const leaseId = `${fencingToken}-${randomBytes(8).toString('hex')}`;
    this.upsert.run(kind, name, leaseId, holder, fencingToken, ttlMs, now, now + ttlMs);
    const claim: LeaseClaim = { kind, name, leaseId, holder, fencingToken, ttlMs, grantedAt: now, expiresAt: now + ttlMs };
    return { granted: true, renewed: false, claim, previousHolder: row?.holder };
  }

  /** Pushes the deadline of a live claim out by `ttlMs` (default: its own TTL); an expired claim cannot be revived. */
  renew(kind: LeaseKind, leaseId: string, ttlMs?: number): RenewOutcome {
    const row = this.byId.get(leaseId) as LeaseRow | undefined;
    if (!row || row.kind !== kind) return { ok: false, reason: 'absent' };
    const now = this.clock.now();
    if (row.expires_at <= now) return { ok: false, reason: 'expired', claim: toClaim(row) };
    const ttl = ttlMs ?? row.ttl_ms;
    this.extend.run(ttl, now + ttl, leaseId);
    return { ok: true, claim: { ...toClaim(row), ttlMs: ttl, expiresAt: now + ttl } };
  }

  /** The live claim with this id, or undefined when it was released, taken over or expired. */
  live(kind: LeaseKind, leaseId: string): LeaseClaim | undefined {
    const row = this.byId.get(leaseId) as LeaseRow | undefined;
    return row && row.kind === kind && row.expires_at > this.clock.now() ? toClaim(row) : undefined;
  }

  /** The live claim on a name, if any. */
  holderOf(kind: LeaseKind, name: string): LeaseClaim | undefined {
    const row = this.byName.get(kind, name) as LeaseRow | undefined;
    return row && row.expires_at > this.clock.now() ? toClaim(row) : undefined;
  }

  /** Frees the name if the claim is still live; returns the released claim, or undefined when it was already gone. */
  release(kind: LeaseKind, leaseId: string): LeaseClaim | undefined {
    const claim = this.live(kind, leaseId);
    // An expired claim's row is dropped too: nothing can renew it any more.
    this.removeById.run(leaseId, kind);
    return claim;
  }
}

export function toClaim(row: LeaseRow): LeaseClaim {
  return {
    kind: row.kind,
    name: row.name,
    leaseId: row.lease_id,
    holder: row.holder,
    fencingToken: row.fencing,
    ttlMs: row.ttl_ms,
    grantedAt: row.granted_at,
    expiresAt: row.expires_at,
  };
}
