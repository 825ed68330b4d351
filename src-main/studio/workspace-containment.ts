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

/**
 * Why `file` is not a path relative to an integration folder, or undefined when it is: text with
 * `/` between segments, none of them empty, `.` or `..`, no backslash or control character
 * (a Windows path, a NUL that would cut the path short), no
 * percent-encoded dot, slash or backslash (a name that becomes `..` once something decodes it),
 * and no segment longer than a file system takes (255 bytes).
 */
export function filePathProblem(file: string): string | undefined {
  if (typeof file !== 'string' || file === '') return 'give a path relative to its folder, e.g. "orders.yaml"';
  if (file.startsWith('/')) return 'it is absolute; give a path relative to the integration folder, e.g. "orders.yaml"';
  if (/[\\\u0000-\u001f\u007f]/.test(file)) return 'it contains a backslash or a control character; separate folders with /';
  if (/%(2e|2f|5c|00)/i.test(file)) return 'it contains a percent-encoded dot, slash, backslash or NUL; write the name as it is, not URL-encoded';
  const segments = file.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return '"." and ".." segments are not allowed: it must stay inside the integration folder';
  if (segments.some((s) => s === '')) return 'it has an empty segment (a doubled or trailing /)';
  if (segments.some((s) => Buffer.byteLength(s) > 255)) return 'a segment is longer than 255 bytes, more than a file system takes';
  return undefined;
}

/** Text fit to quote in a message: control characters shown as ?, long text cut. */
export function printable(text: unknown): string {
  const s = typeof text === 'string' ? text : typeof text;
  return (s.length > 120 ? `${s.slice(0, 120)}…` : s).replace(/[\u0000-\u001f\u007f]/g, '?');
}
