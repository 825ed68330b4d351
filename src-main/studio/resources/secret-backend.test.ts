import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeySealer } from '../../platform/index.ts';
import { keyFileSecretBackend, sealedSecretBackend } from './secret-backend.ts';

/** A stand-in for safeStorage: "seals" by reversing bytes, with a chosen backend. */
const sealer = (backend: string, available = true): KeySealer => ({
  name: 'Electron safeStorage',
  isAvailable: () => available,
  backend: () => backend,
  seal: (b) => Buffer.from(b).reverse(),
  unseal: (b) => Buffer.from(b).reverse(),
});

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const dataDir = (): string => (dir = mkdtempSync(join(tmpdir(), 'secret-backend-')));

describe('the secret backend', () => {
  it('uses an OS keyring without a banner', () => {
    const backend = sealedSecretBackend(sealer('gnome_libsecret'), dataDir());
    expect(backend.status()).toEqual({ protection: 'os-keyring', description: 'Electron safeStorage (gnome_libsecret)', canOptIn: false });
    expect(backend.protection.loadKey(dir!)).toHaveLength(32);
  });

  it('refuses basic_text until the user accepts the weak fallback, and remembers the acceptance', () => {
    const d = dataDir();
    const backend = sealedSecretBackend(sealer('basic_text'), d);
    expect(backend.status()).toMatchObject({ protection: 'refused', canOptIn: true, banner: expect.stringMatching(/OS secret backend is unavailable/) });
    expect(() => backend.protection.loadKey(d)).toThrow(/basic_text/);
    expect(backend.allowWeak()).toMatchObject({ protection: 'weak-fallback', banner: expect.stringMatching(/weak fallback/) });
    expect(backend.protection.loadKey(d)).toHaveLength(32);
    expect(sealedSecretBackend(sealer('basic_text'), d).status().protection).toBe('weak-fallback');
  });

  it('says when the OS cannot encrypt at all, and offers nothing to accept', () => {
    const backend = sealedSecretBackend(sealer('unknown', false), dataDir());
    expect(backend.status()).toMatchObject({ protection: 'unavailable', canOptIn: false });
    expect(() => backend.allowWeak()).toThrow(/no weak fallback to accept/);
  });

  it('tells a web-mode user plainly that a key file protects the secrets', () => {
    const d = dataDir();
    const backend = keyFileSecretBackend(d);
    expect(backend.status()).toMatchObject({ protection: 'key-file', canOptIn: false, banner: expect.stringMatching(/normal case/) });
    backend.protection.loadKey(d);
    expect(readdirSync(d)).toEqual(['flow-secrets.key']);
  });
});
