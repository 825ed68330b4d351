import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ownerOnlyKeyFile } from './key-file.ts';

export const SECRET_KEY_FILE = 'secret-store.key';
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets at rest: values in KV `*_secrets` namespaces and the cluster secrets
 * object. Layout: format byte (1), 12-byte IV, 16-byte tag, ciphertext. The key lives beside but
 * never inside the database, so a copied database file alone reveals nothing. Each sealed value
 * is bound to a context (associated data: its namespace and key, or `flow-secrets`), so a sealed
 * value moved elsewhere fails to open instead of being served there.
 */
export class SecretCipher {
  /** @param keyDescription where the key is kept, for the error when a value does not open */
  constructor(
    private readonly key: Buffer,
    private readonly keyDescription: string,
  ) {}

  /** A key shared by platform replicas (FLOW_PLATFORM_SECRET_KEY, from a Kubernetes Secret); 32 bytes. */
  static fromKey(key: Buffer): SecretCipher {
    if (key.length !== 32) throw new Error(`the secret store key is ${key.length} bytes, not a 32-byte AES-256 key (FLOW_PLATFORM_SECRET_KEY is 32 bytes in base64)`);
    return new SecretCipher(Buffer.from(key), 'FLOW_PLATFORM_SECRET_KEY');
  }

  /** The KV secrets cipher, its key in `<dataDir>/secret-store.key`. */
  static openOrCreate(dataDir: string): SecretCipher {
    const path = join(dataDir, SECRET_KEY_FILE);
    return new SecretCipher(ownerOnlyKeyFile(path, () => randomBytes(32)), `the key file ${SECRET_KEY_FILE}`);
  }

  seal(plain: Buffer, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), body]);
  }

  /** Throws (without the value) when the data has another format, was sealed with another key or altered. */
  open(sealed: Buffer, context: string): Buffer {
    if (sealed[0] !== FORMAT || sealed.length < 1 + IV_BYTES + TAG_BYTES) throw new SealedFormatError(`a sealed secret value has unknown format ${sealed[0]}`);
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new Error(`a secret value failed to decrypt: ${this.keyDescription} does not match the one it was written with, or the value was altered`);
    }
  }
}

/** Sealed bytes that are not this cipher's layout at all (a foreign or truncated file). */
export class SealedFormatError extends Error {}
