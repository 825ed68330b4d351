import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createFileAtomically } from './atomic-file.ts';

export const SECRET_KEY_FILE = 'secret-store.key';
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for values at rest in `*_secrets` namespaces. The 32-byte key lives in a 0600
 * file in the data directory, beside but never inside the database, so a copied database file
 * alone reveals nothing. Each value is bound to its namespace and key (associated data), so a
 * sealed value moved to another key fails to open instead of being served there.
 */
export class SecretCipher {
  private constructor(private readonly key: Buffer) {}

  static openOrCreate(dataDir: string): SecretCipher {
    const path = join(dataDir, SECRET_KEY_FILE);
    createFileAtomically(path, randomBytes(32));
    // A key readable by others is tightened rather than trusted as-is.
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    const key = readFileSync(path);
    if (key.length !== 32) throw new Error(`${path} is ${key.length} bytes, not a 32-byte AES-256 key; restore it from a backup (secrets cannot be read without it)`);
    return new SecretCipher(key);
  }

  seal(plain: Buffer, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), body]);
  }

  /** Throws (without the value) when the data was sealed with another key or altered. */
  open(sealed: Buffer, context: string): Buffer {
    if (sealed[0] !== FORMAT) throw new Error(`a sealed secret value has unknown format ${sealed[0]}`);
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new Error(`a secret value failed to decrypt: the key file ${SECRET_KEY_FILE} does not match the one it was written with, or the value was altered`);
    }
  }
}
