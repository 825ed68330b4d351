import type { LeaseKind } from '../events.ts';

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

/**
 * Claims on names with a deadline: leases (§3.1) and leaderships (§3.2), kept apart by kind so
 * a lease and a leader key of the same name never collide. A claim whose deadline passed without
 * renewal is free for the next caller. Every grant takes a fencing token larger than any granted
 * before it, on any replica; it prefixes the lease id.
 */
export interface LeaseStore {
  /** Grants the name when it is free or its TTL passed; with `sameHolderRenews` (campaigns) the holder's claim is extended instead. */
  acquire(kind: LeaseKind, name: string, holder: string, ttlMs: number, sameHolderRenews: boolean): Promise<AcquireOutcome>;
  /** Pushes the deadline of a live claim out by `ttlMs` (default: its own TTL); an expired claim cannot be revived. */
  renew(kind: LeaseKind, leaseId: string, ttlMs?: number): Promise<RenewOutcome>;
  /** The live claim on a name, if any. */
  holderOf(kind: LeaseKind, name: string): Promise<LeaseClaim | undefined>;
  /** Frees the name if the claim is still live; resolves to the released claim, or undefined when it was gone. */
  release(kind: LeaseKind, leaseId: string): Promise<LeaseClaim | undefined>;
}

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
