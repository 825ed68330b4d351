import type { DeleteOutcome, WriteOutcome } from './object-versions.ts';

/** A KV entry as stored: opaque bytes and the version its last write took (§3.5). */
export interface KvEntry {
  value: Buffer;
  version: number;
}

/**
 * KV entries by namespace and key (§4.1): compare-and-set writes under the X-Object-Version
 * rules (0 creates, a positive version must match), one version counter for every versioned
 * object. `*_secrets` namespaces are sealed at rest; `*_volatile` ones may be lost on a restart.
 * Every write resolves once it is durable (committed), so answering after it acknowledges a
 * durable write.
 */
export interface KvStore {
  /** The entry, or undefined; callers only read what it resolves to. */
  get(ns: string, key: string): Promise<KvEntry | undefined>;
  put(ns: string, key: string, value: Buffer, expected: number): Promise<WriteOutcome>;
  delete(ns: string, key: string, expected: number): Promise<DeleteOutcome>;
}

/** Namespaces whose values are sealed at rest (§2.5). */
export const isSecretNamespace = (namespace: string): boolean => namespace.endsWith('_secrets');
/** Namespaces holding state that is cheap to lose: kept in memory (SQLite) or unlogged (PostgreSQL). */
export const isVolatileNamespace = (namespace: string): boolean => namespace.endsWith('_volatile');
/** What a sealed value is bound to: it opens only under the namespace and key it was written to. */
export const kvSealContext = (ns: string, key: string): string => `kv\0${ns}\0${key}`;
