import { mkdtempSync, readFileSync, rmSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_KEY_FILE, SealedFormatError, SecretCipher } from './secret-cipher.ts';

const scratch = mkdtempSync(join(tmpdir(), 'flow-cipher-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the one secret cipher', () => {
  it('creates its key once as a 0600 file, and a second start on the same directory reads the same key', () => {
    const dir = mkdtempSync(join(scratch, 'key-'));
    const sealed = SecretCipher.openOrCreate(dir).seal(Buffer.from('s3cret'), 'app_secrets/db');
    expect(statSync(join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(SecretCipher.openOrCreate(dir).open(sealed, 'app_secrets/db').toString()).toBe('s3cret');
  });

  it('tightens a key file others can read, and refuses one that is not a 32-byte key, naming the file', () => {
    const dir = mkdtempSync(join(scratch, 'loose-'));
    SecretCipher.openOrCreate(dir);
    chmodSync(join(dir, SECRET_KEY_FILE), 0o644);
    SecretCipher.openOrCreate(dir);
    expect(statSync(join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    writeFileSync(join(dir, SECRET_KEY_FILE), readFileSync(join(dir, SECRET_KEY_FILE)).subarray(0, 16));
    expect(() => SecretCipher.openOrCreate(dir)).toThrow(`${join(dir, SECRET_KEY_FILE)} holds 16 bytes, not a 32-byte AES-256 key`);
  });

  it('binds each value to its context, and says which key does not match without showing the value', () => {
    const cipher = new SecretCipher(Buffer.alloc(32, 7), 'the test key');
    const sealed = cipher.seal(Buffer.from('s3cret'), 'flow-secrets');
    expect(() => cipher.open(sealed, 'other')).toThrow('a secret value failed to decrypt: the test key does not match');
    expect(() => new SecretCipher(Buffer.alloc(32, 8), 'the other key').open(sealed, 'flow-secrets')).toThrow(/the other key does not match/);
    expect(() => cipher.open(Buffer.from('not sealed'), 'flow-secrets')).toThrow(SealedFormatError);
  });

  it('keeps the byte layout the cluster secrets file has always had: format 1, 12-byte IV, 16-byte tag, ciphertext', () => {
    const sealed = new SecretCipher(Buffer.alloc(32, 7), 'k').seal(Buffer.from('{"a":"b"}'), 'flow-secrets');
    expect(sealed[0]).toBe(1);
    expect(sealed.length).toBe(1 + 12 + 16 + '{"a":"b"}'.length);
  });
});
