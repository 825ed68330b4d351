import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import type { InspectionStore, KvKeyRow, KvNamespaceCounts } from '../store/inspection-store.ts';
import { isSecretNamespace, isVolatileNamespace, type KvStore } from '../store/kv-store.ts';
import type { DeleteOutcome, WriteOutcome } from '../store/object-versions.ts';
import { badRequest, conflict, tooLarge } from '../http/api-error.ts';
import { requireName } from './stored-text.ts';

export type { KvKeyRow, KvNamespaceCounts } from '../store/inspection-store.ts';

/** An entry read for display. `value` is absent in `*_secrets` namespaces: secret values never leave the platform. */
export interface KvEntryRead {
  version: number;
  /** Absent for `*_volatile` entries (kept without a time on SQLite). */
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
 * `*_volatile` namespaces are not listed; their entries can be read by key.
 */
export class KvInspection {
  constructor(
    private readonly reads: InspectionStore,
    private readonly kv: KvStore,
    private readonly events: PlatformEventFeed,
    private readonly features: Features,
    /** The platform's clock: what is in flight, delayed or expired is judged by it. */
    private readonly clock: Clock = systemClock,
  ) {}

  async namespaces(): Promise<KvNamespaceCounts[]> {
    return this.reads.kvNamespaces();
  }

  /** Keys of a namespace in order, optionally under a prefix and after a key (to page on), at most 10,000. */
  async keys(namespace: string, prefix = '', limit = MAX_KEYS, after?: string): Promise<KvKeyRow[]> {
    // Keys between the prefix and the prefix followed by the highest code point: an index range.
    // Paging starts at `after` itself (PostgreSQL text holds no NUL to start just past it) and drops it.
    const max = Math.min(Math.max(1, limit), MAX_KEYS);
    const paging = after !== undefined && after > prefix;
    let rows = await this.reads.kvKeys(namespace, paging ? after : prefix, `${prefix}\u{10FFFF}`, paging ? max + 1 : max);
    if (paging) rows = (rows[0]?.key === after ? rows.slice(1) : rows).slice(0, max);
    if (isSecretNamespace(namespace)) for (const r of rows) delete r.bytes;
    return rows;
  }

  async entry(namespace: string, key: string): Promise<KvEntryRead | undefined> {
    if (isSecretNamespace(namespace)) {
      const meta = await this.reads.kvMeta(namespace, key);
      return meta && { ...meta, secret: true };
    }
    const stored = await this.kv.get(namespace, key);
    if (!stored) return undefined;
    const meta = isVolatileNamespace(namespace) ? undefined : await this.reads.kvMeta(namespace, key);
    return { version: stored.version, value: stored.value, secret: false, ...(meta ? { updatedAt: meta.updatedAt } : {}) };
  }

  /** Writes as PUT /v1/kv does, X-Object-Version rules included (0 creates, positive must match). */
  async put(namespace: string, key: string, value: Buffer, expectedVersion: number): Promise<WriteOutcome> {
    requireName(namespace, 'the namespace');
    requireName(key, 'the key');
    if (isSecretNamespace(namespace)) throw badRequest('invalid_name', `"${namespace}" holds secrets; set them in the Secrets panel under Platform secrets, the KV browser never writes secret values`);
    const max = this.features.kv.maxValueBytes;
    if (value.length > max) throw tooLarge('value_too_large', `the value is ${value.length} bytes; kv.maxValueBytes allows ${max}`);
    const outcome = await this.kv.put(namespace, key, value, expectedVersion);
    if (outcome.ok && this.events.active) {
      this.events.emit({ type: 'kv.put', at: this.clock.now(), namespace, key, version: outcome.version, bytes: value.length, created: outcome.created });
    }
    return outcome;
  }

  /**
   * Sets a value in a `*_secrets` namespace whatever its version (sealed at rest by the store);
   * the studio's write-only secret field, never the KV browser. Answers the version only.
   */
  async putSecret(namespace: string, key: string, value: Buffer): Promise<number> {
    requireName(key, 'the secret name');
    if (!isSecretNamespace(namespace)) throw badRequest('invalid_name', `"${namespace}" is not a secret namespace (one ending in _secrets)`);
    const max = this.features.kv.maxValueBytes;
    if (value.length > max) throw tooLarge('value_too_large', `the value is ${value.length} bytes; kv.maxValueBytes allows ${max}`);
    // A flow may write the same key between the read and the write: try again on that conflict.
    for (let attempt = 0; ; attempt++) {
      const current = (await this.reads.kvMeta(namespace, key))?.version ?? 0;
      const outcome = await this.kv.put(namespace, key, value, current);
      if (outcome.ok) {
        if (this.events.active) this.events.emit({ type: 'kv.put', at: this.clock.now(), namespace, key, version: outcome.version, bytes: value.length, created: outcome.created });
        return outcome.version;
      }
      if (attempt === 2) throw conflict('version_conflict', `the secret "${key}" kept changing while it was set; try again`);
    }
  }

  /** Deletes as DELETE /v1/kv does: with a positive expected version only when it still matches. */
  async delete(namespace: string, key: string, expectedVersion: number): Promise<DeleteOutcome> {
    const outcome = await this.kv.delete(namespace, key, expectedVersion);
    if (outcome.ok && outcome.deleted && this.events.active) this.events.emit({ type: 'kv.delete', at: this.clock.now(), namespace, key });
    return outcome;
  }
}
