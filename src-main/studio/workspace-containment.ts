import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { StudioError } from './studio-error.ts';

/**
 * Refuses a path whose real location (every symbolic link resolved) is outside `root`'s real
 * location, and returns it unchanged otherwise. A path that does not exist yet is judged by its
 * deepest existing ancestor, so a file about to be written inside a symlinked folder is refused
 * too; a dangling link is refused outright, because writing through it would create its target.
 *
 * Links that stay inside the workspace keep working. What is checked is the state at the time of
 * the call: the studio protects against links a project brings along, not against a process that
 * races it on the same disk.
 */
export function containedPath(root: string, path: string, what: string): string {
  const realRoot = realpathSync(root);
  const real = realLocation(path, what);
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    throw new StudioError(`${what} leads outside the workspace ${root} (through a symbolic link); the studio reads and writes only inside its workspace`);
  }
  return path;
}

function realLocation(path: string, what: string): string {
  const missing: string[] = [];
  for (let current = path; ; ) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      if (isLink(current)) throw new StudioError(`${what} is a symbolic link to nothing; the studio does not write through it`);
      const parent = dirname(current);
      if (parent === current) throw err;
      missing.push(basename(current));
      current = parent;
    }
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
