import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../http/api-error.ts';
import type { Db } from '../store/database.ts';
import { SealedFormatError, SecretCipher } from '../store/secret-cipher.ts';
import type { KubernetesSecretObject } from './kubernetes-secret-object.ts';
import type { SecretKeyProtection } from './secret-key-protection.ts';

export const SECRET_OBJECT_FILE = 'flow-secrets';
/** The associated data the object is sealed with: its own name. */
const CONTEXT = 'flow-secrets';

export interface SecretInfo {
  name: string;
  createdAt: number;
  updatedAt: number;
  updatedBy: string;
}

/**
 * Cluster secrets (spec 2 §2.11). Every value is a key of one object, `flow-secrets`, kept as
 * one file sealed by the platform's one SecretCipher (AES-256-GCM) beside the database, with its key protected outside the database;
 * the database keeps names and timestamps only. Nothing here puts a value in an error message.
 *
 * A write seals the whole object to a temporary file and renames it over the old one before the
 * name reaches the database, so a crash leaves at worst a value without a name, which the next
 * start drops.
 *
 * With a Kubernetes backend the values are instead the keys of the Secret `flow-secrets` in the
 * platform's namespace (read at start, patched on each write); the database still keeps the
 * names. Writes then finish asynchronously: `put` and `delete` return promises.
 */
export class ClusterSecretStore {
  private cipher: SecretCipher | undefined;
  private values: Map<string, string> | undefined;
  private readonly path: string;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly protection: SecretKeyProtection,
    private readonly kubernetes?: KubernetesSecretObject,
  ) {
    this.path = join(dataDir, SECRET_OBJECT_FILE);
  }

  /** Where the values live, for messages. */
  get backend(): string {
    return this.kubernetes?.description ?? `the sealed file ${SECRET_OBJECT_FILE} in the data directory`;
  }

  /** Reads the values of a remote backend before the first `reveal`; a no-op for the local file. */
  async ready(): Promise<void> {
    await this.kubernetes?.load();
  }

  /** Names and timestamps, by name. */
  list(): SecretInfo[] {
    return (this.db.prepare('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets ORDER BY name').all() as SecretRow[]).map(info);
  }

  get(name: string): SecretInfo | undefined {
    const row = this.db.prepare('SELECT name, created_at, updated_at, updated_by FROM cluster_secrets WHERE name = ?').get(name) as SecretRow | undefined;
    return row && info(row);
  }

  /** Creates or overwrites; true when created. The value is stored before the name. */
  put(name: string, value: string, actor: string): boolean | Promise<boolean> {
    const existed = this.get(name) !== undefined;
    const record = (): boolean => {
      const now = Date.now();
      this.db
        .prepare(
          `INSERT INTO cluster_secrets (name, created_at, updated_at, updated_by) VALUES (?, ?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
        )
        .run(name, now, now, actor);
      return !existed;
    };
    if (this.kubernetes) return this.kubernetes.put(name, value).then(record);
    const next = new Map(this.load());
    next.set(name, value);
    this.save(next);
    return record();
  }

  /** Deletes the name, then the value; false when there was no such secret. */
  delete(name: string): boolean | Promise<boolean> {
    const removed = this.db.prepare('DELETE FROM cluster_secrets WHERE name = ?').run(name).changes === 1;
    if (this.kubernetes) return this.kubernetes.cached(name) === undefined ? removed : this.kubernetes.delete(name).then(() => removed);
    const values = this.load();
    if (values.has(name)) {
      const next = new Map(values);
      next.delete(name);
      this.save(next);
    }
    return removed;
  }

  /**
   * The value, for the process that starts a deployment's runtime (the equivalent of a secret
   * reference resolved into a pod's environment). In process only: no route calls it.
   */
  reveal(name: string): string | undefined {
    if (!this.get(name)) return undefined;
    return this.kubernetes ? this.kubernetes.cached(name) : this.load().get(name);
  }

  private load(): Map<string, string> {
    if (this.values) return this.values;
    this.cipher ??= new SecretCipher(this.loadKey(), this.protection.description);
    let sealed: Buffer | undefined;
    try {
      sealed = readFileSync(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const values = new Map<string, string>(sealed ? Object.entries(this.open(sealed)) : []);
    // Values whose name never reached the database (a crash mid-write) are dropped.
    const names = new Set(this.db.prepare('SELECT name FROM cluster_secrets').pluck().all() as string[]);
    let orphans = false;
    for (const name of values.keys()) {
      if (!names.has(name)) {
        values.delete(name);
        orphans = true;
      }
    }
    if (orphans) this.save(values);
    this.values = values;
    return values;
  }

  private loadKey(): Buffer {
    try {
      return this.protection.loadKey(this.dataDir);
    } catch (err) {
      throw new ApiError(503, 'secret_store_unavailable', `the secret store is unavailable: its key is kept by ${this.protection.description}, which failed: ${(err as Error).message}`);
    }
  }

  private save(values: Map<string, string>): void {
    const sealed = this.cipher!.seal(Buffer.from(JSON.stringify(Object.fromEntries(values))), CONTEXT);
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, sealed);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    this.values = values;
  }

  private open(sealed: Buffer): Record<string, string> {
    try {
      return JSON.parse(this.cipher!.open(sealed, CONTEXT).toString('utf8')) as Record<string, string>;
    } catch (err) {
      if (err instanceof SealedFormatError) {
        throw new ApiError(503, 'secret_store_unavailable', `the secret store ${SECRET_OBJECT_FILE} has an unknown format; restore it from a backup`);
      }
      throw new ApiError(
        503,
        'secret_store_unavailable',
        `the secret store ${SECRET_OBJECT_FILE} does not open with its key (${this.protection.description}): the key was replaced or the file altered`,
      );
    }
  }
}

interface SecretRow {
  name: string;
  created_at: number;
  updated_at: number;
  updated_by: string;
}

const info = (r: SecretRow): SecretInfo => ({ name: r.name, createdAt: r.created_at, updatedAt: r.updated_at, updatedBy: r.updated_by });
