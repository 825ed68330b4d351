import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

/**
 * Serves the built renderer. Paths never leave `dir`; a path without an extension that names no
 * file gets index.html, since the app routes on the client.
 */
export function serveStatic(dir: string, urlPath: string, res: ServerResponse): void {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('The studio UI is not built yet; run `npm run build:renderer` (npm start does it for you).');
    return;
  }
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(urlPath)).replace(/^[/\\]+/, '');
  } catch {
    rel = '';
  }
  let file = rel === '' || rel.split(sep).includes('..') ? index : join(dir, rel);
  if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
    if (extname(rel) !== '') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`no file ${urlPath}`);
      return;
    }
    file = index;
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' });
  createReadStream(file).pipe(res);
}
