import type { Statement } from 'better-sqlite3';
import type { LeaseHolder } from '../../../shared/platform-views.ts';
import type { Db } from '../store/database.ts';

/** A claim as stored (the studio's LeaseHolder); one whose deadline passed stays until the name is taken again or released. */
export type StoredClaim = LeaseHolder;

/** Read-only view of leases and leaderships for the studio. */
export class LeaseInspection {
  private readonly claimsStmt: Statement<[]>;

  constructor(db: Db) {
    this.claimsStmt = db.prepare(
      `SELECT kind, name, lease_id AS leaseId, holder, fencing AS fencingToken, ttl_ms AS ttlMs, granted_at AS grantedAt, expires_at AS expiresAt
       FROM leases ORDER BY kind, name`,
    );
  }

  /** Every stored claim; those with `expiresAt` in the past are free for the next caller. */
  claims(): StoredClaim[] {
    return this.claimsStmt.all() as StoredClaim[];
  }
}
