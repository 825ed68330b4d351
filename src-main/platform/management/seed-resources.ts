import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ResourceBackend } from '../store/platform-store.ts';
import { resourceKinds } from '../store/resource-store.ts';

/**
 * Loads resources from a directory laid out by kind, `<dir>/env/**` and `<dir>/template/**`;
 * a file's path below its kind folder is the resource name, e.g. `template/emails/welcome.txt`
 * becomes the template `emails/welcome.txt`. Existing resources of the same name are replaced.
 * Returns how many were loaded (once written, on a store that answers later).
 */
export function seedResourcesFromDir(store: ResourceBackend, dir: string): number | Promise<number> {
  let count = 0;
  const pending: Array<Promise<void>> = [];
  for (const kind of resourceKinds) {
    const root = join(dir, kind);
    let files: string[];
    try {
      files = readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const file of files) {
      const name = relative(root, file).split(sep).join('/');
      const written = store.write(kind, name, readFileSync(file), `seed:${dir}`);
      if (written instanceof Promise) pending.push(written);
      count++;
    }
  }
  // The embedded store writes at once, so the studio's resources are in place when this returns.
  return pending.length === 0 ? count : Promise.all(pending).then(() => count);
}
