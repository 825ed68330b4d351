import { relative, sep } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';

export interface WorkspaceChange {
  integration: string;
  /** Relative to the integration folder, with `/`; empty when the folder itself was removed. */
  file: string;
}

export interface WatchOptions {
  /** Quiet time before a burst of changes is reported; editors write in several steps. */
  debounceMs?: number;
  /** Called once the initial scan is done and every later change is reported (tests wait on it). */
  onReady?: () => void;
}

/** Hidden files (editor swap files, our own temporary writes), backups (`name~`), node_modules. */
export function isUnwatchedName(name: string): boolean {
  return name.startsWith('.') || name.endsWith('~') || name === 'node_modules';
}

/** Folder levels below the workspace the watcher reports. */
export const WATCH_DEPTH = 8;

/**
 * Watches the workspace folder and reports changed files per integration, once per burst.
 * Hidden files (editor swap files, our own temporary writes) and backups (`name~`) are ignored.
 *
 * chokidar rather than `fs.watch(root, {recursive: true})`: on Linux Node's recursive watcher
 * follows the inode of each file, so after a file is replaced by a rename (how the studio and
 * most editors save) it reports that first replacement and then nothing more for that path.
 * chokidar watches every folder and re-arms on renames, so the fifth save is seen like the first.
 */
export function watchWorkspace(root: string, onChange: (changes: WorkspaceChange[]) => void, options: WatchOptions = {}): () => void {
  // chokidar drops a second `change` of one path within 50 ms of the first; a quiet time longer
  // than that means the burst's reload reads the files after that dropped write, never before it.
  const debounceMs = Math.max(options.debounceMs ?? 100, 60);
  const pending = new Map<string, WorkspaceChange>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = (): void => {
    timer = undefined;
    const changes = [...pending.values()];
    pending.clear();
    if (changes.length > 0 && !closed) onChange(changes);
  };

  const ignored = (path: string): boolean => {
    const rel = relative(root, path);
    if (rel === '' || rel.startsWith('..')) return false;
    return rel.split(sep).some(isUnwatchedName);
  };

  // atomic off: chokidar would hold back an unlink for 100 ms to pair it with an add, which lets an
  // editor's temporary file report its removal as a second burst (and a second reload); the quiet
  // time here already merges a save's steps into one.
  const watcher = chokidarWatch(root, { ignoreInitial: true, ignored, depth: WATCH_DEPTH, atomic: false });
  watcher.on('all', (event, path) => {
    const parts = relative(root, path).split(sep);
    if (parts[0] === '' || parts[0].startsWith('..')) return;
    // An integration folder removed whole is reported as a change of it with no file: the unlink
    // of each file inside may never come (a folder made just before has no watch of its own yet),
    // and without one the run manager never learnt it should stop what ran from it.
    if (parts.length < 2 && event !== 'unlinkDir') return;
    const [integration, ...rest] = parts;
    const change = { integration, file: rest.join('/') };
    pending.set(`${change.integration}/${change.file}`, change);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  });
  // A watcher error (folder removed) must not take the studio down; the UI still works by reads.
  watcher.on('error', () => {});
  if (options.onReady) watcher.once('ready', options.onReady);

  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    void watcher.close();
  };
}
