import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretStoreStatus } from '../../../shared/resource-types.ts';
import { keyFileProtection, sealedKeyProtection, type KeySealer, type SecretKeyProtection } from '../../platform/index.ts';
import { StudioError } from '../studio-error.ts';

/** Where the user's acceptance of a weak secret backend is remembered, in the data directory. */
export const WEAK_BACKEND_OPT_IN_FILE = 'secret-backend-opt-in.json';

/** Backends of Electron safeStorage that only obfuscate (a hard-coded password). */
const WEAK_BACKENDS = ['basic_text'];

/**
 * How the studio keeps the key of the cluster secret store, and what it tells the user about it.
 * The Electron main process builds one over safeStorage; web mode and headless use the key file.
 */
export interface SecretBackend {
  readonly protection: SecretKeyProtection;
  status(): SecretStoreStatus;
  /** Accepts the weak fallback; refused where there is none to accept. */
  allowWeak(): SecretStoreStatus;
}

/** Web mode and headless: a 0600 key file beside the store, said plainly. */
export function keyFileSecretBackend(dataDir: string): SecretBackend {
  const protection = keyFileProtection();
  const status = (): SecretStoreStatus => ({
    protection: 'key-file',
    description: protection.description,
    banner:
      `No OS secret backend in web mode: secret values are encrypted with a key kept in a file readable only by you (${join(dataDir, 'flow-secrets.key')}). ` +
      'Anyone who can read your files can read them. That is the normal case for a studio served to a browser; the desktop app keeps the key in the OS keyring.',
    canOptIn: false,
  });
  return {
    protection,
    status,
    allowWeak() {
      throw new StudioError('web mode has no weaker secret backend to accept: the key file is already in use');
    },
  };
}

/**
 * Electron: the key sealed by safeStorage. The `basic_text` backend (no keyring found on Linux)
 * is refused until the user accepts it, and the acceptance is remembered in the data directory.
 */
export function sealedSecretBackend(sealer: KeySealer, dataDir: string): SecretBackend {
  const optInPath = join(dataDir, WEAK_BACKEND_OPT_IN_FILE);
  let optedIn = readOptIn(optInPath);
  // The options are read each time the key is loaded, so an opt-in takes effect without a restart.
  const options = {
    weakBackends: WEAK_BACKENDS,
    get allowWeakBackend() {
      return optedIn;
    },
  };
  const protection = sealedKeyProtection(sealer, options);
  const status = (): SecretStoreStatus => {
    const description = protection.description;
    if (!sealer.isAvailable()) {
      return {
        protection: 'unavailable',
        description,
        banner: `The OS secret backend is unavailable (${sealer.name} cannot encrypt on this system), so secrets cannot be stored. Install or unlock the OS keyring and restart the studio.`,
        canOptIn: false,
      };
    }
    const backend = sealer.backend?.();
    if (backend !== undefined && WEAK_BACKENDS.includes(backend)) {
      return optedIn
        ? {
            protection: 'weak-fallback',
            description,
            banner: `Secrets are stored with the weak fallback: no OS keyring was found, so ${sealer.name} uses "${backend}", which obfuscates the key rather than protecting it. Install a keyring (gnome-keyring, KWallet) to protect them.`,
            canOptIn: false,
          }
        : {
            protection: 'refused',
            description,
            banner: `The OS secret backend is unavailable: no keyring was found, and ${sealer.name} would fall back to "${backend}", which only obfuscates the key. Secrets cannot be stored until you install a keyring (gnome-keyring, KWallet) or accept the weak fallback.`,
            canOptIn: true,
          };
    }
    return { protection: 'os-keyring', description, canOptIn: false };
  };
  return {
    protection,
    status,
    allowWeak() {
      if (!status().canOptIn) throw new StudioError('there is no weak fallback to accept: the OS secret backend is in use or unavailable altogether');
      writeFileSync(optInPath, JSON.stringify({ allowWeakBackend: true, at: new Date().toISOString() }) + '\n', { mode: 0o600 });
      optedIn = true;
      return status();
    },
  };
}

function readOptIn(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { allowWeakBackend?: unknown }).allowWeakBackend === true;
  } catch {
    return false;
  }
}
