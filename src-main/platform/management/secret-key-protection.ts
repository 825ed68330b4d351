import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkKey, createKeyFileOnce, ownerOnlyKeyFile } from '../store/key-file.ts';

/**
 * How the key of the `flow-secrets` object is kept outside the database. Headless, the default
 * is a 0600 key file; the Electron main process passes `sealedKeyProtection` over `safeStorage`
 * so the OS keychain protects the key (the platform never imports 'electron').
 */
export interface SecretKeyProtection {
  /** Said in errors, e.g. "a 0600 key file" or "Electron safeStorage (gnome_libsecret)". */
  readonly description: string;
  /** The 32-byte AES-256 key, created on first use. Throws, saying why, when it cannot be kept safely. */
  loadKey(dataDir: string): Buffer;
}

export const SECRET_OBJECT_KEY_FILE = 'flow-secrets.key';
export const SEALED_KEY_FILE = 'flow-secrets.key.sealed';

/** The key in `<dataDir>/flow-secrets.key`, readable by the owner only. */
export function keyFileProtection(): SecretKeyProtection {
  return {
    description: `a 0600 key file (${SECRET_OBJECT_KEY_FILE})`,
    loadKey(dataDir) {
      return ownerOnlyKeyFile(join(dataDir, SECRET_OBJECT_KEY_FILE), () => randomBytes(32));
    },
  };
}

/**
 * Something that encrypts small values with a key the OS keeps, e.g. Electron `safeStorage`:
 *
 *   sealedKeyProtection({
 *     name: 'Electron safeStorage',
 *     isAvailable: () => safeStorage.isEncryptionAvailable(),
 *     backend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os'),
 *     seal: (key) => safeStorage.encryptString(key.toString('base64')),
 *     unseal: (sealed) => Buffer.from(safeStorage.decryptString(sealed), 'base64'),
 *   }, { allowWeakBackend: userOptedIn })
 */
export interface KeySealer {
  readonly name: string;
  isAvailable(): boolean;
  /** The backend in use, when the sealer has several (safeStorage on Linux: `basic_text`, `gnome_libsecret`, `kwallet5`…). */
  backend?(): string;
  seal(plain: Buffer): Buffer;
  unseal(sealed: Buffer): Buffer;
}

export interface SealedKeyOptions {
  /** Backends that only obfuscate (safeStorage's `basic_text` uses a hard-coded password). */
  weakBackends?: readonly string[];
  /** The user's explicit opt-in to a weak backend; refused without it. */
  allowWeakBackend?: boolean;
}

/** The key sealed by an OS facility into `<dataDir>/flow-secrets.key.sealed`. */
export function sealedKeyProtection(sealer: KeySealer, options: SealedKeyOptions = {}): SecretKeyProtection {
  const weak = options.weakBackends ?? ['basic_text'];
  const backend = (): string | undefined => sealer.backend?.();
  return {
    get description() {
      const b = backend();
      return b ? `${sealer.name} (${b})` : sealer.name;
    },
    loadKey(dataDir) {
      if (!sealer.isAvailable()) throw new Error(`${sealer.name} cannot encrypt on this system, so cluster secrets cannot be kept; install or unlock the OS keyring`);
      const b = backend();
      if (b !== undefined && weak.includes(b) && !options.allowWeakBackend) {
        throw new Error(
          `${sealer.name} would use the "${b}" backend, which does not protect the key (no OS keyring found); ` +
            'install a keyring (e.g. gnome-keyring or kwallet), or opt in to the weaker backend in the settings',
        );
      }
      const path = join(dataDir, SEALED_KEY_FILE);
      createKeyFileOnce(path, () => sealer.seal(randomBytes(32)));
      let key: Buffer;
      try {
        key = sealer.unseal(readFileSync(path));
      } catch {
        throw new Error(`${path} could not be unsealed by ${sealer.name}: it was sealed for another user or machine; cluster secrets cannot be read without it`);
      }
      return checkKey(key, path);
    },
  };
}
