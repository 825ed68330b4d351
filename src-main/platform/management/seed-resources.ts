import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resourceKinds, type ResourceStore } from '../store/resource-store.ts';

/**
 * Loads resources from a directory laid out by kind, `<dir>/env/**` and `<dir>/template/**`;
 * a file's path below its kind folder is the resource name, e.g. `template/emails/welcome.txt`
 * becomes the template `emails/welcome.txt`. Existing resources of the same name are replaced.
 * Resolves to how many were loaded, once written.
 */
export async function seedResourcesFromDir(store: ResourceStore, dir: string): Promise<number> {
  const writes: Array<Promise<void>> = [];
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
      writes.push(store.write(kind, name, readFileSync(file), `seed:${dir}`));
    }
  }
  await Promise.all(writes);
  return writes.length;
}
