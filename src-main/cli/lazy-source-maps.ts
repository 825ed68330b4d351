import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Stack traces of the built CLI name the TypeScript files, lines and columns, as Node's own
 * `--enable-source-maps` does, but a build file's map (`<file>.js.map` beside it) is read and parsed
 * when a stack trace first passes through that file, not when the file loads: Node reads every
 * loaded file's map and splits its code into lines at load, about 15 ms of a runtime's start
 * that a process which never prints a stack trace never needs.
 *
 * Frames are formatted as V8 formats them, with each mapped location put in place of the built
 * one; frames of files without a map (Node's own, packages) stay as they are. Nothing is
 * installed when Node's own source maps are on (`--enable-source-maps`, NODE_OPTIONS).
 * Returns the function that removes it again.
 */
export function mapStackTracesLazily(): () => void {
  if ((process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled) return () => {};
  const maps = new Map<string, { map: SourceMap; url: string } | null>();
  const mapOf = (file: string): { map: SourceMap; url: string } | null => {
    let found = maps.get(file);
    if (found === undefined) {
      found = null;
      try {
        const path = file.startsWith('file:') ? fileURLToPath(file) : file;
        if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) {
          const mapFile = `${path}.map`;
          found = { map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))), url: pathToFileURL(mapFile).href };
        }
      } catch {
        // No map beside it (or not a file): its frames stay as they are.
      }
      maps.set(file, found);
    }
    return found;
  };
  const mapped = (frame: NodeJS.CallSite): string => {
    const text = String(frame);
    const file = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (!file || !line || !column || file.startsWith('node:')) return text;
    const found = mapOf(file);
    if (!found) return text;
    const entry = found.map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return text;
    const source = new URL(entry.originalSource, found.url);
    const where = `${source.protocol === 'file:' ? fileURLToPath(source) : source.href}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    const built = `${file}:${line}:${column}`;
    const at = text.lastIndexOf(built);
    return at < 0 ? text : text.slice(0, at) + where + text.slice(at + built.length);
  };
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]): string => {
    let header: string;
    try {
      header = Error.prototype.toString.call(error);
    } catch {
      header = '<error>';
    }
    return header + frames.map((frame) => `\n    at ${safely(mapped, frame)}`).join('');
  };
  return () => {
    Error.prepareStackTrace = previous;
  };
}

/** A frame that cannot be mapped (a map that fails to parse, say) is shown as built. */
function safely(map: (frame: NodeJS.CallSite) => string, frame: NodeJS.CallSite): string {
  try {
    return map(frame);
  } catch {
    return String(frame);
  }
}
