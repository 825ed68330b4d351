import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import type { LeaseKind } from '../../events.ts';
import { toClaim, type AcquireOutcome, type LeaseClaim, type LeaseRow, type LeaseStore, type RenewOutcome } from '../lease-store.ts';
import { MetaCounter, type Db } from './sqlite-database.ts';

/**
 * Leases and leaderships in the SQLite file, decided by the platform's clock. Every grant takes
 * the next fencing token from a counter that survives restarts (the meta table).
 */
export class SqliteLeases implements LeaseStore {
  private readonly fencing: MetaCounter;
  private readonly byName: Statement<[string, string]>;
  private readonly byId: Statement<[string]>;
  private readonly upsert: Statement<[string, string, string, string, number, number, number, number]>;
  private readonly extend: Statement<[number, number, string]>;
  private readonly removeById: Statement<[string, string]>;
  private readonly acquireTx: (kind: LeaseKind, name: string, holder: string, ttlMs: number, sameHolderRenews: boolean) => AcquireOutcome;

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
    this.acquireTx = db.transaction(this.acquireNow.bind(this));
  }

  async acquire(kind: LeaseKind, name: string, holder: string, ttlMs: number, sameHolderRenews: boolean): Promise<AcquireOutcome> {
    return this.acquireTx(kind, name, holder, ttlMs, sameHolderRenews);
  }

  private acquireNow(kind: LeaseKind, name: string, holder: string, ttlMs: number, sameHolderRenews: boolean): AcquireOutcome {
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

  async renew(kind: LeaseKind, leaseId: string, ttlMs?: number): Promise<RenewOutcome> {
    const row = this.byId.get(leaseId) as LeaseRow | undefined;
    if (!row || row.kind !== kind) return { ok: false, reason: 'absent' };
    const now = this.clock.now();
    if (row.expires_at <= now) return { ok: false, reason: 'expired', claim: toClaim(row) };
    const ttl = ttlMs ?? row.ttl_ms;
    this.extend.run(ttl, now + ttl, leaseId);
    return { ok: true, claim: { ...toClaim(row), ttlMs: ttl, expiresAt: now + ttl } };
  }

  /** The live claim with this id, or undefined when it was released, taken over or expired. */
  private live(kind: LeaseKind, leaseId: string): LeaseClaim | undefined {
    const row = this.byId.get(leaseId) as LeaseRow | undefined;
    return row && row.kind === kind && row.expires_at > this.clock.now() ? toClaim(row) : undefined;
  }

  async holderOf(kind: LeaseKind, name: string): Promise<LeaseClaim | undefined> {
    const row = this.byName.get(kind, name) as LeaseRow | undefined;
    return row && row.expires_at > this.clock.now() ? toClaim(row) : undefined;
  }

  async release(kind: LeaseKind, leaseId: string): Promise<LeaseClaim | undefined> {
    const claim = this.live(kind, leaseId);
    // An expired claim's row is dropped too: nothing can renew it any more.
    this.removeById.run(leaseId, kind);
    return claim;
  }
}
