import type { Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/**
 * Bundled, every module would share its output file's `import.meta.url`, and files read relative
 * to their own source (package.json, shared/*.json, examples/, worker bundles) would be looked for
 * in the wrong place. So each module's `import.meta.url` becomes its original location, computed
 * at run time from the output file's own URL: the package keeps the source layout around
 * `outdir` (the sources themselves need not ship).
 *
 * `layout` places the sources somewhere else than where they are read from: a build of the
 * sources at `sourceRoot` into a package laid out at `packageRoot` (the CLI build's test packs a
 * package into a folder of its own). Every output file must sit directly in `outdir`.
 */
export function keepModuleUrls(outdir: string, layout?: { sourceRoot: string; packageRoot: string }): Plugin {
  const placed = (path: string): string => (layout ? join(layout.packageRoot, relative(layout.sourceRoot, path)) : path);
  return {
    name: 'keep-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const rel = relative(outdir, placed(args.path)).split(sep).join('/');
        const contents = source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}
