import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time under a folder (bounded depth), 0 when absent. */
function newestMtime(dir: string, depth = 0): number {
  if (!existsSync(dir) || depth > 6) return 0;
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p, depth + 1) : statSync(p).mtimeMs);
  }
  return newest;
}

/** True when dist-renderer/ is missing or older than the renderer's sources. */
export function rendererIsStale(appRoot: string): boolean {
  const built = join(appRoot, 'dist-renderer', 'index.html');
  if (!existsSync(built)) return true;
  // An installed package ships dist-renderer/ built, without the renderer's sources or Vite's config.
  if (!existsSync(join(appRoot, 'vite.config.ts'))) return false;
  const sources = Math.max(newestMtime(join(appRoot, 'src-renderer')), newestMtime(join(appRoot, 'shared')), statSync(join(appRoot, 'vite.config.ts')).mtimeMs);
  return sources > statSync(built).mtimeMs;
}

/**
 * Builds the renderer with Vite when it is stale. Vite is a development dependency, so this only
 * runs from a source checkout; a packaged app ships dist-renderer/ prebuilt.
 *
 * Always a production build: Vite takes the caller's NODE_ENV over its build mode, and a `serve`
 * started under NODE_ENV=test (any child of a Vitest test) or =development would otherwise write
 * React's development build, 3x slower to draw, where every later studio and e2e run serves it
 * until the sources change. The caller's NODE_ENV is put back once the build is done.
 */
export async function ensureRendererBuilt(appRoot: string, say: (line: string) => void = () => {}): Promise<void> {
  if (!rendererIsStale(appRoot)) return;
  if (!existsSync(join(appRoot, 'vite.config.ts'))) return;
  say('building the studio UI…');
  const vite = await import('vite');
  const callersNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await vite.build({ configFile: join(appRoot, 'vite.config.ts'), root: join(appRoot, 'src-renderer'), mode: 'production', logLevel: 'warn' });
  } finally {
    if (callersNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = callersNodeEnv;
  }
}
