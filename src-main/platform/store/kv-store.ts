import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import { GroupCommit } from './group-commit.ts';
import { deleteConflict, writeConflict, type DeleteOutcome, type ObjectVersions, type WriteOutcome } from './object-versions.ts';
import type { SecretCipher } from './secret-cipher.ts';
import { BoundedMap } from '../../../shared/bounded-map.ts';
import { systemClock, type Clock } from '../../../shared/clock.ts';

export interface KvEntry {
  value: Buffer;
  version: number;
}

/** Namespaces whose values are sealed at rest (§2.5). */
export const isSecretNamespace = (namespace: string): boolean => namespace.endsWith('_secrets');
/** Namespaces holding state that is cheap to lose: kept in memory, gone on restart. */
export const isVolatileNamespace = (namespace: string): boolean => namespace.endsWith('_volatile');

/** Entries the read cache holds at most, and the largest value it holds. */
const CACHED_ENTRIES = 4096;
const CACHED_VALUE_BYTES = 4096;

/**
 * Key/value entries by namespace. Any namespace name is accepted as given; `*_secrets` values
 * are encrypted with AES-256-GCM before they reach SQLite, `*_volatile` ones never do.
 *
 * Reads go through a small cache of recently read entries (secrets excepted, which are never
 * held opened): a hit skips the SQLite point read, about a tenth of a KV GET. This process is the
 * file's only writer (the platform server owns its data directory), and every write here drops
 * the key from the cache before it runs, so a read after a write always reads SQLite; a write
 * that rolls back leaves the key merely uncached.
 */
export class KvStore {
  private readonly volatile = new Map<string, Map<string, KvEntry>>();
  private readonly cache = new BoundedMap<string, KvEntry>(CACHED_ENTRIES);
  private readonly select: Statement<[string, string]>;
  private readonly selectVersion: Statement<[string, string]>;
  private readonly insert: Statement<[string, string, Buffer, number, number]>;
  private readonly update: Statement<[Buffer, number, number, string, string]>;
  private readonly remove: Statement<[string, string]>;
  private readonly putTx: (ns: string, key: string, value: Buffer, expected: number) => WriteOutcome;
  private readonly group: GroupCommit;
  private readonly deleteTx: (ns: string, key: string, expected: number) => DeleteOutcome;

  constructor(
    db: Db,
    private readonly versions: ObjectVersions,
    private readonly cipher: SecretCipher,
    private readonly clock: Clock = systemClock,
  ) {
    this.select = db.prepare('SELECT value, version FROM kv_entries WHERE namespace = ? AND key = ?');
    this.selectVersion = db.prepare('SELECT version FROM kv_entries WHERE namespace = ? AND key = ?').pluck();
    this.insert = db.prepare('INSERT INTO kv_entries (namespace, key, value, version, updated_at) VALUES (?, ?, ?, ?, ?)');
    this.update = db.prepare('UPDATE kv_entries SET value = ?, version = ?, updated_at = ? WHERE namespace = ? AND key = ?');
    this.remove = db.prepare('DELETE FROM kv_entries WHERE namespace = ? AND key = ?');

    this.group = new GroupCommit(db);
    this.putTx = db.transaction((ns: string, key: string, value: Buffer, expected: number) => this.putRow(ns, key, value, expected));
    this.deleteTx = db.transaction((ns: string, key: string, expected: number): DeleteOutcome => {
      this.cache.delete(cacheKey(ns, key));
      const current = this.selectVersion.get(ns, key) as number | undefined;
      if (current === undefined) return { ok: true, deleted: false };
      const conflict = deleteConflict(expected, current);
      if (conflict) return { ok: false, conflict };
      this.remove.run(ns, key);
      this.versions.rememberDeleted();
      return { ok: true, deleted: true };
    });
  }

  private putRow(ns: string, key: string, value: Buffer, expected: number): WriteOutcome {
    this.cache.delete(cacheKey(ns, key));
    const current = this.selectVersion.get(ns, key) as number | undefined;
    const conflict = writeConflict(expected, current);
    if (conflict) return { ok: false, conflict };
    const version = this.versions.next();
    const stored = isSecretNamespace(ns) ? this.cipher.seal(value, sealContext(ns, key)) : value;
    if (current === undefined) this.insert.run(ns, key, stored, version, this.clock.now());
    else this.update.run(stored, version, this.clock.now(), ns, key);
    return { ok: true, version, created: current === undefined };
  }

  /** The entry, or undefined; callers only read what it returns. */
  get(ns: string, key: string): KvEntry | undefined {
    if (isVolatileNamespace(ns)) return this.volatile.get(ns)?.get(key);
    if (isSecretNamespace(ns)) {
      const sealed = this.select.get(ns, key) as KvEntry | undefined;
      if (sealed) sealed.value = this.cipher.open(sealed.value, sealContext(ns, key));
      return sealed;
    }
    const ck = cacheKey(ns, key);
    const cached = this.cache.get(ck);
    if (cached) return cached;
    const row = this.select.get(ns, key) as KvEntry | undefined;
    if (row && row.value.length <= CACHED_VALUE_BYTES) this.cache.set(ck, row);
    return row;
  }

  put(ns: string, key: string, value: Buffer, expected: number): WriteOutcome {
    if (!isVolatileNamespace(ns)) return this.putTx(ns, key, value, expected);
    let entries = this.volatile.get(ns);
    const current = entries?.get(key)?.version;
    const conflict = writeConflict(expected, current);
    if (conflict) return { ok: false, conflict };
    const version = this.versions.next();
    if (!entries) this.volatile.set(ns, (entries = new Map()));
    // Copy: the request's buffer may be a slice of a pooled allocation.
    entries.set(key, { value: Buffer.from(value), version });
    return { ok: true, version, created: current === undefined };
  }

  /**
   * Like put, committed together with the other writes of this turn of the event loop (group
   * commit); resolves once committed, so answering after it acknowledges a durable write.
   */
  putCommitted(ns: string, key: string, value: Buffer, expected: number): WriteOutcome | Promise<WriteOutcome> {
    if (isVolatileNamespace(ns)) return this.put(ns, key, value, expected);
    // The request's buffer may be a slice of a pooled allocation, reused before the commit.
    const own = Buffer.from(value);
    return this.group.run(() => this.putRow(ns, key, own, expected));
  }

  delete(ns: string, key: string, expected: number): DeleteOutcome {
    if (!isVolatileNamespace(ns)) return this.deleteTx(ns, key, expected);
    const entries = this.volatile.get(ns);
    const current = entries?.get(key)?.version;
    if (current === undefined) return { ok: true, deleted: false };
    const conflict = deleteConflict(expected, current);
    if (conflict) return { ok: false, conflict };
    entries!.delete(key);
    return { ok: true, deleted: true };
  }
}

const sealContext = (ns: string, key: string): string => `kv\0${ns}\0${key}`;
const cacheKey = (ns: string, key: string): string => `${ns}\0${key}`;
