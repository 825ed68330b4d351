import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedRequest } from '../../../shared/request-types.ts';
import { replaceFileAtomically, SecretCipher, type SecretKeyProtection } from '../../platform/index.ts';

export const SEALED_ORIGINALS_FILE = 'request-history.sealed';
/** The associated data the file is sealed with: its own name, so it opens nowhere else. */
const CONTEXT = 'request-history';

/**
 * The requests the history shows masked, as they were sent, so a person can send one again:
 * kept only where the user's own secret store keeps its values, a file in the data folder sealed
 * with AES-256-GCM under the secret store's key (the OS keyring in Electron, a 0600 key file in web
 * mode). Never in studio.db. When that key cannot be had, nothing is kept: such a request re-sends
 * with its masked values, which the composer shows.
 */
export class SealedRequestOriginals {
  private cipher: SecretCipher | undefined;
  private values: Map<string, ResolvedRequest> | undefined;
  private readonly path: string;

  constructor(
    private readonly dataDir: string,
    private readonly protection: SecretKeyProtection,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.path = join(dataDir, SEALED_ORIGINALS_FILE);
  }

  get(id: string): ResolvedRequest | undefined {
    return this.load()?.get(id);
  }

  put(id: string, request: ResolvedRequest): void {
    const values = this.load();
    if (!values) return;
    values.set(id, request);
    this.save(values);
  }

  /** Forgets the originals of entries the history no longer holds. */
  keepOnly(ids: ReadonlySet<string>): void {
    const values = this.values ?? this.load();
    if (!values) return;
    let changed = false;
    for (const id of [...values.keys()]) {
      if (!ids.has(id)) {
        values.delete(id);
        changed = true;
      }
    }
    if (changed) this.save(values);
  }

  clear(): void {
    this.values = new Map();
    rmSync(this.path, { force: true });
  }

  private load(): Map<string, ResolvedRequest> | undefined {
    if (this.values) return this.values;
    try {
      this.cipher ??= new SecretCipher(this.protection.loadKey(this.dataDir), this.protection.description);
      let sealed: Buffer | undefined;
      try {
        sealed = readFileSync(this.path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const entries = sealed ? (JSON.parse(this.cipher.open(sealed, CONTEXT).toString('utf8')) as Record<string, ResolvedRequest>) : {};
      this.values = new Map(Object.entries(entries));
      return this.values;
    } catch (err) {
      // No key (a refused keyring), or a file that no longer opens: keep nothing rather than fail a send.
      this.onError(err);
      return undefined;
    }
  }

  private save(values: Map<string, ResolvedRequest>): void {
    try {
      const sealed = this.cipher!.seal(Buffer.from(JSON.stringify(Object.fromEntries(values))), CONTEXT);
      replaceFileAtomically(this.path, sealed);
    } catch (err) {
      this.onError(err);
    }
  }
}
