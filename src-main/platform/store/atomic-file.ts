import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Creates `path` holding `bytes` unless it already exists, so that even an OS crash leaves
 * either no file or the whole file — never a truncated key beside an encrypted database:
 *
 *   1. the bytes go to a fresh temporary file in the same directory (mode `mode`), which is fsynced;
 *   2. it is hard-linked to `path`, which fails if `path` exists (exclusive, like `wx`, so two
 *      processes starting on one data directory agree on one key), and the temporary name removed;
 *   3. the directory is fsynced, so the new name itself survives the crash.
 *
 * Returns true when this call created the file. Every key file of the platform is written here.
 */
export function createFileAtomically(path: string, bytes: Uint8Array, mode = 0o600): boolean {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', mode);
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already closed on the failure path
    }
  }
  let created: boolean;
  try {
    linkSync(tmp, path);
    created = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') created = false;
    // File systems without hard links: rename, which is atomic but not exclusive.
    else if ((code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') && !existsSync(path)) {
      renameSync(tmp, path);
      fsyncDirectory(dir);
      return true;
    } else {
      unlinkSync(tmp);
      throw err;
    }
  }
  unlinkSync(tmp);
  fsyncDirectory(dir);
  return created;
}

/**
 * Replaces `path` with `bytes` so a crash leaves the old file or the new one whole: written to
 * `path.tmp` (mode `mode`) and fsynced, then renamed over `path`. Sealed secret files are written here.
 */
export function replaceFileAtomically(path: string, bytes: Uint8Array, mode = 0o600): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Makes the directory's entries durable; a no-op where directories cannot be opened (Windows). */
export function fsyncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the file itself is already synced.
  } finally {
    closeSync(fd);
  }
}
