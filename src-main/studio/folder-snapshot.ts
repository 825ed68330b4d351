import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isUnwatchedName, WATCH_DEPTH } from './workspace-watch.ts';

/** What each file of a folder held, by its path relative to the folder (with `/`). */
export type FolderSnapshot = ReadonlyMap<string, string>;

/** Files above this size are told apart by size and modification time, not read. */
const HASHED_BYTES = 4 * 1024 * 1024;

/**
 * What an integration's folder holds, taken just before a runtime reads it, so that a watcher
 * event which changed nothing — a file written before the runtime started whose event came late,
 * a save without edits, a `touch` — does not restart what runs. Skips what the workspace watcher
 * never reports (isUnwatchedName) and `skip`'s choices.
 */
export function snapshotFolder(dir: string, skip: (file: string) => boolean = () => false): FolderSnapshot {
  const out = new Map<string, string>();
  const walk = (abs: string, rel: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (isUnwatchedName(e.name)) continue;
      const file = rel === '' ? e.name : `${rel}/${e.name}`;
      if (skip(file)) continue;
      if (e.isDirectory()) {
        out.set(file, 'dir');
        if (depth < WATCH_DEPTH) walk(join(abs, e.name), file, depth + 1);
      } else out.set(file, fingerprint(join(abs, e.name)));
    }
  };
  walk(dir, '', 0);
  return out;
}

/** Whether every one of `files` is as the snapshot saw it (present with the same content, or absent in both). */
export function unchangedSince(snapshot: FolderSnapshot, dir: string, files: readonly string[]): boolean {
  for (const file of files) {
    const abs = join(dir, file);
    let now: string | undefined;
    try {
      now = statSync(abs).isDirectory() ? 'dir' : fingerprint(abs);
    } catch {
      now = undefined;
    }
    if (now !== snapshot.get(file)) return false;
  }
  return true;
}

function fingerprint(path: string): string {
  try {
    const stat = statSync(path);
    if (stat.size > HASHED_BYTES) return `${stat.size}@${stat.mtimeMs}`;
    return createHash('sha256').update(readFileSync(path)).digest('base64');
  } catch {
    return 'unreadable';
  }
}
