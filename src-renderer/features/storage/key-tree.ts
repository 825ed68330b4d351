import type { KvKeyInfo } from '../../../shared/platform-views.ts';

/** One row of the key tree: a folder (a key prefix ending in "/") or a key. */
export type KeyTreeRow =
  | { kind: 'folder'; path: string; label: string; depth: number; keys: number }
  | { kind: 'key'; path: string; label: string; depth: number; info: KvKeyInfo };

interface Folder {
  folders: Map<string, Folder>;
  keys: Map<string, KvKeyInfo>;
  count: number;
}

/**
 * Keys with slashes as a tree, flattened into rows for a virtual list: `orders/2024/7` sits in
 * folder `orders/`, then `2024/`. Folders in `collapsed` (by their path, e.g. `orders/`) hide
 * what is under them. A key may also be a folder's name (`orders` next to `orders/7`).
 */
export function keyTreeRows(keys: readonly KvKeyInfo[], collapsed: ReadonlySet<string>): KeyTreeRow[] {
  const root: Folder = { folders: new Map(), keys: new Map(), count: 0 };
  for (const info of keys) {
    const parts = info.key.split('/');
    let folder = root;
    folder.count++;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { folders: new Map(), keys: new Map(), count: 0 }));
      next.count++;
      folder = next;
    }
    folder.keys.set(parts[parts.length - 1], info);
  }
  const rows: KeyTreeRow[] = [];
  const walk = (folder: Folder, prefix: string, depth: number): void => {
    const names = new Set([...folder.folders.keys(), ...folder.keys.keys()]);
    for (const name of [...names].sort()) {
      const key = folder.keys.get(name);
      if (key) rows.push({ kind: 'key', path: key.key, label: name === '' ? '(empty)' : name, depth, info: key });
      const sub = folder.folders.get(name);
      if (sub) {
        const path = `${prefix}${name}/`;
        rows.push({ kind: 'folder', path, label: `${name}/`, depth, keys: sub.count });
        if (!collapsed.has(path)) walk(sub, path, depth + 1);
      }
    }
  };
  walk(root, '', 0);
  return rows;
}
