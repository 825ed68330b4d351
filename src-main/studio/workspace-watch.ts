import { watch, type FSWatcher } from 'node:fs';

export interface WorkspaceChange {
  integration: string;
  /** Relative to the integration folder, with `/`. */
  file: string;
}

export interface WatchOptions {
  /** Quiet time before a burst of changes is reported; editors write in several steps. */
  debounceMs?: number;
}

/**
 * Watches the workspace folder (recursively) and reports changed files per integration, once
 * per burst. Hidden files (editor swap files, our own temporary writes) are ignored.
 */
export function watchWorkspace(root: string, onChange: (changes: WorkspaceChange[]) => void, options: WatchOptions = {}): () => void {
  const debounceMs = options.debounceMs ?? 100;
  const pending = new Map<string, WorkspaceChange>();
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;

  const flush = (): void => {
    timer = undefined;
    const changes = [...pending.values()];
    pending.clear();
    if (changes.length > 0) onChange(changes);
  };

  try {
    watcher = watch(root, { recursive: true }, (_event, filename) => {
      if (!filename) return;
      const parts = filename.toString().split(/[\\/]/);
      if (parts.some((p) => p.startsWith('.')) || parts.some((p) => p.endsWith('~'))) return;
      const [integration, ...rest] = parts;
      const change = { integration, file: rest.join('/') };
      pending.set(`${change.integration}/${change.file}`, change);
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, debounceMs);
    });
    // A watcher error (folder removed) must not take the studio down; the UI still works by reads.
    watcher.on('error', () => {});
  } catch {
    watcher = undefined;
  }

  return () => {
    if (timer) clearTimeout(timer);
    watcher?.close();
  };
}
