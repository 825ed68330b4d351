import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { createFileAtomically } from './atomic-file.ts';

/**
 * The platform's key files (the KV `*_secrets` key, the cluster secrets key, its OS-sealed
 * variant): created once, atomically and exclusively (atomic-file.ts: a crash leaves no file or
 * the whole key, and two processes starting on one data directory agree on one key), readable by
 * the owner only. Every key file of the platform is created here.
 */
export function createKeyFileOnce(path: string, make: () => Buffer): void {
  if (!existsSync(path)) createFileAtomically(path, make());
}

/** A 32-byte AES-256 key in a 0600 file, made on first use; one readable by others is tightened. */
export function ownerOnlyKeyFile(path: string, make: () => Buffer): Buffer {
  createKeyFileOnce(path, make);
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return checkKey(readFileSync(path), path);
}

/** Throws, naming the file, when what it holds is not a 32-byte key. */
export function checkKey(key: Buffer, path: string): Buffer {
  if (key.length !== 32) throw new Error(`${path} holds ${key.length} bytes, not a 32-byte AES-256 key; restore it from a backup (the secrets it protects cannot be read without it)`);
  return key;
}
