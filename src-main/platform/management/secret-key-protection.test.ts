import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';
import { SEALED_KEY_FILE, SECRET_OBJECT_KEY_FILE, sealedKeyProtection, type KeySealer } from './secret-key-protection.ts';

/** A stand-in for Electron safeStorage: encrypts with a key "the OS" keeps, on a chosen backend. */
function fakeSafeStorage(backend: string, available = true): KeySealer {
  const osKey = randomBytes(32);
  const iv = Buffer.alloc(12);
  return {
    name: 'Electron safeStorage',
    isAvailable: () => available,
    backend: () => backend,
    seal: (plain) => {
      const c = createCipheriv('aes-256-gcm', osKey, iv);
      return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
    },
    unseal: (sealed) => {
      const d = createDecipheriv('aes-256-gcm', osKey, iv);
      d.setAuthTag(sealed.subarray(-16));
      return Buffer.concat([d.update(sealed.subarray(0, -16)), d.final()]);
    },
  };
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe('the key of the secret store, protected by the OS', () => {
  it('is sealed by the injected protection, so no plain key file is written', async () => {
    platform = await startTestPlatform({ secretKeyProtection: sealedKeyProtection(fakeSafeStorage('gnome_libsecret')) });
    expect((await platform.call('PUT', '/secrets/token', { json: { value: 'sealed-by-the-keyring' } })).status).toBe(201);
    expect(existsSync(join(platform.dataDir, SEALED_KEY_FILE))).toBe(true);
    expect(existsSync(join(platform.dataDir, SECRET_OBJECT_KEY_FILE))).toBe(false);
    expect(await platform.server.management.secrets.reveal('token')).toBe('sealed-by-the-keyring');
  });

  it('refuses the basic_text backend unless the user opted in, and says what to do', async () => {
    platform = await startTestPlatform({ secretKeyProtection: sealedKeyProtection(fakeSafeStorage('basic_text')) });
    const refused = await platform.call('PUT', '/secrets/token', { json: { value: 'would-be-obfuscated-only' } });
    expect(refused.status).toBe(503);
    expect(refused.code).toBe('secret_store_unavailable');
    expect(refused.message).toContain('basic_text');
    expect(refused.message).toContain('opt in');
    expect(refused.text).not.toContain('would-be-obfuscated-only');
    // Names stay readable: listing needs no key.
    expect((await platform.call('GET', '/secrets')).json).toEqual({ secrets: [] });
  });

  it('accepts basic_text once the user opted in', async () => {
    platform = await startTestPlatform({ secretKeyProtection: sealedKeyProtection(fakeSafeStorage('basic_text'), { allowWeakBackend: true }) });
    expect((await platform.call('PUT', '/secrets/token', { json: { value: 'opted-in' } })).status).toBe(201);
  });

  it('refuses when encryption is not available at all', async () => {
    platform = await startTestPlatform({ secretKeyProtection: sealedKeyProtection(fakeSafeStorage('kwallet5', false)) });
    expect((await platform.call('PUT', '/secrets/token', { json: { value: 'nowhere-to-keep-it' } })).status).toBe(503);
  });

  it('cannot open the store with another key: the secrets stay sealed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-key-'));
    try {
      const first = await startTestPlatform({ dataDir });
      await first.call('PUT', '/secrets/token', { json: { value: 'only-for-the-first-key' } });
      await first.close();
      rmSync(join(dataDir, SECRET_OBJECT_KEY_FILE));
      platform = await startTestPlatform({ dataDir });
      const res = await platform.call('PUT', '/secrets/other', { json: { value: 'x-value' } });
      expect(res.status).toBe(503);
      expect(res.message).toContain('does not open with its key');
      expect(readFileSync(join(dataDir, 'flow-secrets')).includes('only-for-the-first-key')).toBe(false);
    } finally {
      await platform?.server.close();
      platform = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
