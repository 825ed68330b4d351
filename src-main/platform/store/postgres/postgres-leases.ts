import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { LeaseKind } from '../../events.ts';
import { toClaim, type AcquireOutcome, type LeaseClaim, type LeaseStore, type RenewOutcome, type LeaseRow as StoredLeaseRow } from '../lease-store.ts';
import { inTransaction, prepared } from './postgres-connection.ts';

interface LeaseRow extends StoredLeaseRow {
  /** The database clock when the row was read: expiry is decided by it, not by a replica's clock. */
  now: number;
}

/**
 * Leases and leaderships on PostgreSQL, decided by the database clock (`flow_now_ms()`), so
 * replicas with drifting clocks still agree on who holds a name. A grant runs under a
 * transaction-scoped advisory lock on the name: two replicas granting the same name serialize,
 * and the loser sees the winner's claim. Fencing tokens come from a sequence, so a later grant
 * always carries a larger token than any earlier one, on any replica.
 * By design this ignores the platform's injected Clock (shared/clock.ts), which the SQLite store
 * decides TTLs with: replicas must agree on one clock, and only the database's is shared.
 */
export class PostgresLeases implements LeaseStore {
  constructor(private readonly pool: pg.Pool) {}

  acquire(kind: LeaseKind, name: string, holder: string, ttlMs: number, sameHolderRenews: boolean): Promise<AcquireOutcome> {
    return inTransaction(this.pool, async (c) => {
      await c.query(prepared('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['lease', kind, name])]));
      const { rows } = await c.query<LeaseRow>(prepared('SELECT *, flow_now_ms() AS now FROM leases WHERE kind = $1 AND name = $2', [kind, name]));
      const row = rows[0];
      if (row && row.expires_at > row.now) {
        if (!(sameHolderRenews && row.holder === holder)) return { granted: false, current: toClaim(row) };
        const ext = await c.query<{ expires_at: number }>(
          prepared('UPDATE leases SET ttl_ms = $2, expires_at = flow_now_ms() + $2 WHERE lease_id = $1 RETURNING expires_at', [row.lease_id, ttlMs]),
        );
        return { granted: true, renewed: true, claim: { ...toClaim(row), ttlMs, expiresAt: ext.rows[0].expires_at } };
      }
      const granted = await c.query<LeaseRow>(
        prepared(
          `WITH token AS (SELECT nextval('lease_fencing') AS f, flow_now_ms() AS now)
         INSERT INTO leases (kind, name, lease_id, holder, fencing, ttl_ms, granted_at, expires_at)
         SELECT $1, $2, token.f || '-' || $3, $4, token.f, $5, token.now, token.now + $5 FROM token
         ON CONFLICT (kind, name) DO UPDATE SET lease_id = excluded.lease_id, holder = excluded.holder, fencing = excluded.fencing,
           ttl_ms = excluded.ttl_ms, granted_at = excluded.granted_at, expires_at = excluded.expires_at
         RETURNING *`,
          [kind, name, randomBytes(8).toString('hex'), holder, ttlMs],
        ),
      );
      return { granted: true, renewed: false, claim: toClaim(granted.rows[0]), previousHolder: row?.holder };
    });
  }

  async renew(kind: LeaseKind, leaseId: string, ttlMs?: number): Promise<RenewOutcome> {
    const { rows } = await this.pool.query<LeaseRow>(
      prepared(
        `UPDATE leases SET ttl_ms = COALESCE($3, ttl_ms), expires_at = flow_now_ms() + COALESCE($3, ttl_ms)
       WHERE lease_id = $1 AND kind = $2 AND expires_at > flow_now_ms() RETURNING *`,
        [leaseId, kind, ttlMs ?? null],
      ),
    );
    if (rows[0]) return { ok: true, claim: toClaim(rows[0]) };
    const gone = await this.pool.query<LeaseRow>(prepared('SELECT * FROM leases WHERE lease_id = $1 AND kind = $2', [leaseId, kind]));
    return gone.rows[0] ? { ok: false, reason: 'expired', claim: toClaim(gone.rows[0]) } : { ok: false, reason: 'absent' };
  }

  async holderOf(kind: LeaseKind, name: string): Promise<LeaseClaim | undefined> {
    const { rows } = await this.pool.query<LeaseRow>(
      prepared('SELECT * FROM leases WHERE kind = $1 AND name = $2 AND expires_at > flow_now_ms()', [kind, name]),
    );
    return rows[0] && toClaim(rows[0]);
  }

  async release(kind: LeaseKind, leaseId: string): Promise<LeaseClaim | undefined> {
    // An expired claim's row is dropped too: nothing can renew it any more.
    const { rows } = await this.pool.query<LeaseRow>(
      prepared('DELETE FROM leases WHERE lease_id = $1 AND kind = $2 RETURNING *, flow_now_ms() AS now', [leaseId, kind]),
    );
    const row = rows[0];
    return row && row.expires_at > row.now ? toClaim(row) : undefined;
  }
}
