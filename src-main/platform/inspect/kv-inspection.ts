import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { Statement } from 'better-sqlite3';
import type { KvNamespaceInfo } from '../../../shared/platform-views.ts';
import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import type { Db } from '../store/database.ts';
import { isSecretNamespace, isVolatileNamespace, type KvStore } from '../store/kv-store.ts';
import type { DeleteOutcome, WriteOutcome } from '../store/object-versions.ts';
import { requireName } from './stored-text.ts';

/** A namespace as stored: the studio's KvNamespaceInfo before it adds what only it knows (secret, volatile). */
export type KvNamespaceCounts = Pick<KvNamespaceInfo, 'namespace' | 'keys'> & { updatedAt: number };

/** A stored key. `bytes` is absent in `*_secrets` namespaces: even the size of a secret stays in. */
export interface KvKeyRow {
  key: string;
  version: number;
  updatedAt: number;
  bytes?: number;
}

/** An entry read for display. `value` is absent in `*_secrets` namespaces: secret values never leave the platform. */
export interface KvEntryRead {
  version: number;
  /** Absent for `*_volatile` entries (kept in memory without a time). */
  updatedAt?: number;
  value?: Buffer;
  secret: boolean;
}

const MAX_KEYS = 10_000;

/**
 * Read-only views of the KV store for the studio (namespaces, keys with version and write time,
 * one entry), plus its browser's edits, which go through the same versioned store calls as the
 * KV routes: a stale expected version is refused, never overwritten. `*_secrets` values are never
 * read here, and never written: secrets have their own panel.
 *
 * `*_volatile` namespaces live in the store's memory and are not listed; their entries can be
 * read by key.
 */
export class KvInspection {
  private readonly namespacesStmt: Statement<[]>;
  private readonly keysStmt: Statement<[string, string, string, number]>;
  private readonly metaStmt: Statement<[string, string]>;

  constructor(
    db: Db,
    private readonly kv: KvStore,
    private readonly events: PlatformEventFeed,
    private readonly features: Features,
    /** The platform's clock: what is in flight, delayed or expired is judged by it. */
    private readonly clock: Clock = systemClock,
  ) {
    this.namespacesStmt = db.prepare('SELECT namespace, COUNT(*) AS keys, MAX(updated_at) AS updatedAt FROM kv_entries GROUP BY namespace ORDER BY namespace');
    this.keysStmt = db.prepare(
      `SELECT key, version, updated_at AS updatedAt, length(value) AS bytes FROM kv_entries
       WHERE namespace = ? AND key >= ? AND key < ? ORDER BY key LIMIT ?`,
    );
    this.metaStmt = db.prepare('SELECT version, updated_at AS updatedAt FROM kv_entries WHERE namespace = ? AND key = ?');
  }

  namespaces(): KvNamespaceCounts[] {
    return this.namespacesStmt.all() as KvNamespaceCounts[];
  }

  /** Keys of a namespace in order, optionally under a prefix, at most 10,000. */
  keys(namespace: string, prefix = '', limit = MAX_KEYS): KvKeyRow[] {
    // Keys between the prefix and the prefix followed by the highest code point: an index range.
    const rows = this.keysStmt.all(namespace, prefix, `${prefix}\u{10FFFF}`, Math.min(Math.max(1, limit), MAX_KEYS)) as KvKeyRow[];
    if (isSecretNamespace(namespace)) for (const r of rows) delete r.bytes;
    return rows;
  }

  entry(namespace: string, key: string): KvEntryRead | undefined {
    if (isSecretNamespace(namespace)) {
      const meta = this.metaStmt.get(namespace, key) as { version: number; updatedAt: number } | undefined;
      return meta && { ...meta, secret: true };
    }
    const stored = this.kv.get(namespace, key);
    if (!stored) return undefined;
    const meta = isVolatileNamespace(namespace) ? undefined : (this.metaStmt.get(namespace, key) as { updatedAt: number } | undefined);
    return { version: stored.version, value: stored.value, secret: false, ...(meta ? { updatedAt: meta.updatedAt } : {}) };
  }

  /** Writes as PUT /v1/kv does, X-Object-Version rules included (0 creates, positive must match). */
  put(namespace: string, key: string, value: Buffer, expectedVersion: number): WriteOutcome {
    requireName(namespace, 'the namespace');
    requireName(key, 'the key');
    if (isSecretNamespace(namespace)) throw new Error(`"${namespace}" holds secrets; set them in the Secrets panel, the KV browser never writes secret values`);
    const max = this.features.kv.maxValueBytes;
    if (value.length > max) throw new Error(`the value is ${value.length} bytes; kv.maxValueBytes allows ${max}`);
    const outcome = this.kv.put(namespace, key, value, expectedVersion);
    if (outcome.ok && this.events.active) {
      this.events.emit({ type: 'kv.put', at: this.clock.now(), namespace, key, version: outcome.version, bytes: value.length, created: outcome.created });
    }
    return outcome;
  }

  /** Deletes as DELETE /v1/kv does: with a positive expected version only when it still matches. */
  delete(namespace: string, key: string, expectedVersion: number): DeleteOutcome {
    const outcome = this.kv.delete(namespace, key, expectedVersion);
    if (outcome.ok && outcome.deleted && this.events.active) this.events.emit({ type: 'kv.delete', at: this.clock.now(), namespace, key });
    return outcome;
  }
}
