import type { Statement } from 'better-sqlite3';
import { BoundedMap } from '../../../../shared/bounded-map.ts';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import { isSecretNamespace, isVolatileNamespace, kvSealContext, type KvEntry, type KvStore } from '../kv-store.ts';
import { deleteConflict, writeConflict, type DeleteOutcome, type WriteOutcome } from '../object-versions.ts';
import type { SecretCipher } from '../secret-cipher.ts';
import { GroupCommit } from './group-commit.ts';
import type { Db } from './sqlite-database.ts';
import type { ObjectVersions } from './sqlite-object-versions.ts';

/** Entries the read cache holds at most, and the largest value it holds. */
const CACHED_ENTRIES = 4096;
const CACHED_VALUE_BYTES = 4096;

/**
 * KV entries in the SQLite file. `*_secrets` values are encrypted with AES-256-GCM before they
 * reach SQLite, `*_volatile` ones never do (kept in memory, gone on restart). Writes share a WAL
 * commit with the other writes of their turn of the event loop (group commit) and resolve once
 * committed.
 *
 * Reads go through a small cache of recently read entries (secrets excepted, which are never
 * held opened): a hit skips the SQLite point read, about a tenth of a KV GET. This process is the
 * file's only writer (the platform server owns its data directory), and every write here drops
 * the key from the cache before it runs, so a read after a write always reads SQLite; a write
 * that rolls back leaves the key merely uncached.
 */
export class SqliteKv implements KvStore {
  private readonly volatile = new Map<string, Map<string, KvEntry>>();
  private readonly cache = new BoundedMap<string, KvEntry>(CACHED_ENTRIES);
  private readonly select: Statement<[string, string]>;
  private readonly selectVersion: Statement<[string, string]>;
  private readonly insert: Statement<[string, string, Buffer, number, number]>;
  private readonly update: Statement<[Buffer, number, number, string, string]>;
  private readonly remove: Statement<[string, string]>;
  private readonly group: GroupCommit;

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
  }

  get(ns: string, key: string): Promise<KvEntry | undefined> {
    try {
      return Promise.resolve(this.read(ns, key));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  /** The entry now: SQLite answers a point read synchronously. */
  private read(ns: string, key: string): KvEntry | undefined {
    if (isVolatileNamespace(ns)) return this.volatile.get(ns)?.get(key);
    if (isSecretNamespace(ns)) {
      const sealed = this.select.get(ns, key) as KvEntry | undefined;
      if (sealed) sealed.value = this.cipher.open(sealed.value, kvSealContext(ns, key));
      return sealed;
    }
    const ck = cacheKey(ns, key);
    const cached = this.cache.get(ck);
    if (cached) return cached;
    const row = this.select.get(ns, key) as KvEntry | undefined;
    if (row && row.value.length <= CACHED_VALUE_BYTES) this.cache.set(ck, row);
    return row;
  }

  put(ns: string, key: string, value: Buffer, expected: number): Promise<WriteOutcome> {
    // The caller's buffer may be a slice of a pooled allocation, reused before the commit.
    const own = Buffer.from(value);
    if (isVolatileNamespace(ns)) return Promise.resolve(this.putVolatile(ns, key, own, expected));
    return this.group.run(() => this.putRow(ns, key, own, expected));
  }

  delete(ns: string, key: string, expected: number): Promise<DeleteOutcome> {
    if (isVolatileNamespace(ns)) return Promise.resolve(this.deleteVolatile(ns, key, expected));
    return this.group.run(() => this.deleteRow(ns, key, expected));
  }

  private putRow(ns: string, key: string, value: Buffer, expected: number): WriteOutcome {
    this.cache.delete(cacheKey(ns, key));
    const current = this.selectVersion.get(ns, key) as number | undefined;
    const conflict = writeConflict(expected, current);
    if (conflict) return { ok: false, conflict };
    const version = this.versions.next();
    const stored = isSecretNamespace(ns) ? this.cipher.seal(value, kvSealContext(ns, key)) : value;
    if (current === undefined) this.insert.run(ns, key, stored, version, this.clock.now());
    else this.update.run(stored, version, this.clock.now(), ns, key);
    return { ok: true, version, created: current === undefined };
  }

  private deleteRow(ns: string, key: string, expected: number): DeleteOutcome {
    this.cache.delete(cacheKey(ns, key));
    const current = this.selectVersion.get(ns, key) as number | undefined;
    if (current === undefined) return { ok: true, deleted: false };
    const conflict = deleteConflict(expected, current);
    if (conflict) return { ok: false, conflict };
    this.remove.run(ns, key);
    this.versions.rememberDeleted();
    return { ok: true, deleted: true };
  }

  private putVolatile(ns: string, key: string, value: Buffer, expected: number): WriteOutcome {
    let entries = this.volatile.get(ns);
    const current = entries?.get(key)?.version;
    const conflict = writeConflict(expected, current);
    if (conflict) return { ok: false, conflict };
    const version = this.versions.next();
    if (!entries) this.volatile.set(ns, (entries = new Map()));
    entries.set(key, { value, version });
    return { ok: true, version, created: current === undefined };
  }

  private deleteVolatile(ns: string, key: string, expected: number): DeleteOutcome {
    const entries = this.volatile.get(ns);
    const current = entries?.get(key)?.version;
    if (current === undefined) return { ok: true, deleted: false };
    const conflict = deleteConflict(expected, current);
    if (conflict) return { ok: false, conflict };
    entries!.delete(key);
    return { ok: true, deleted: true };
  }
}

const cacheKey = (ns: string, key: string): string => `${ns}\0${key}`;
