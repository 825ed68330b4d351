import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../http/api-error.ts';
import { replaceFileAtomically } from '../store/atomic-file.ts';
import type { SecretValues } from '../store/cluster-secret-store.ts';
import { SealedFormatError, SecretCipher } from '../store/secret-cipher.ts';
import type { KubernetesSecretObject } from './kubernetes-secret-object.ts';
import type { SecretKeyProtection } from './secret-key-protection.ts';

export const SECRET_OBJECT_FILE = 'flow-secrets';
/** The associated data the object is sealed with: its own name. */
const CONTEXT = 'flow-secrets';

/**
 * The values as keys of the Kubernetes Secret `flow-secrets` (read at start, patched on each
 * write). Another replica may have written a key since this one last read the Secret: a key
 * missing from the cache is looked up again before it is reported missing or skipped on delete.
 */
export function kubernetesSecretValues(object: KubernetesSecretObject): SecretValues {
  const fresh = async (name: string): Promise<string | undefined> => object.cached(name) ?? (await object.load()).get(name);
  return {
    description: object.description,
    ready: async () => {
      await object.load();
    },
    get: fresh,
    put: (name, value) => object.put(name, value),
    delete: async (name) => {
      if ((await fresh(name)) !== undefined) await object.delete(name);
    },
    close: () => object.close(),
  };
}

/**
 * The values as one file, `flow-secrets`, sealed by the platform's SecretCipher (AES-256-GCM)
 * beside the database, with its key protected outside the database. A write seals the whole
 * object to a temporary file and renames it over the old one before the name reaches the
 * database, so a crash leaves at worst a value without a name, which the next load drops.
 */
export class SealedFileSecretValues implements SecretValues {
  private cipher: SecretCipher | undefined;
  private values: Map<string, string> | undefined;
  private readonly path: string;

  constructor(
    private readonly dataDir: string,
    private readonly protection: SecretKeyProtection,
    /** The names the database holds: values without one are dropped on load. */
    private readonly names: () => Promise<readonly string[]>,
  ) {
    this.path = join(dataDir, SECRET_OBJECT_FILE);
  }

  readonly description = `the sealed file ${SECRET_OBJECT_FILE} in the data directory`;

  async ready(): Promise<void> {}

  async get(name: string): Promise<string | undefined> {
    return (await this.load()).get(name);
  }

  async put(name: string, value: string): Promise<void> {
    const next = new Map(await this.load());
    next.set(name, value);
    this.save(next);
  }

  async delete(name: string): Promise<void> {
    const values = await this.load();
    if (!values.has(name)) return;
    const next = new Map(values);
    next.delete(name);
    this.save(next);
  }

  private async load(): Promise<Map<string, string>> {
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
    const names = new Set(await this.names());
    let orphans = false;
    for (const name of values.keys()) {
      if (!names.has(name)) {
        values.delete(name);
        orphans = true;
      }
    }
    if (this.values) return this.values; // another call loaded meanwhile
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
    replaceFileAtomically(this.path, sealed);
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
