import { build, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';

/**
 * Bundles the Electron entry points: main and the workers (OTLP export, telemetry writer) as ESM (packages stay
 * external and load from node_modules, better-sqlite3 included), the preload as CommonJS because
 * a sandboxed preload cannot load modules; it inlines the StudioApi list from shared/.
 */
export async function buildElectron(appRoot: string, outdir = join(appRoot, 'dist-electron')): Promise<void> {
  const common = { bundle: true, platform: 'node' as const, target: 'node22', sourcemap: false, logLevel: 'warning' as const, external: ['electron'] };
  await build({
    ...common,
    entryPoints: [join(appRoot, 'src-main', 'electron', 'main.ts')],
    outfile: join(outdir, 'main.js'),
    format: 'esm',
    packages: 'external',
    plugins: [keepModuleUrls(outdir)],
  });
  // Workers start from files of their own; sources are not shipped, so otel-export.ts and
  // telemetry-writer.ts start these bundles instead (dist-electron/<name>.js).
  for (const worker of [join('runtime', 'telemetry', 'otel-worker.ts'), join('platform', 'store', 'sqlite', 'telemetry-writer-worker.ts')]) {
    await build({
      ...common,
      entryPoints: [join(appRoot, 'src-main', worker)],
      outfile: join(outdir, basename(worker).replace(/\.ts$/, '.js')),
      format: 'esm',
      packages: 'external',
    });
  }
  await build({
    ...common,
    entryPoints: [join(appRoot, 'src-main', 'electron', 'preload.ts')],
    outfile: join(outdir, 'preload.cjs'),
    format: 'cjs',
  });
}

/**
 * Bundled, every module would share main.js's `import.meta.url`, and files read relative to their
 * own source (package.json, shared/*.json, examples/) would be looked for in the wrong place. So
 * each module's `import.meta.url` becomes its original location, computed from main.js's at run
 * time; the app keeps the source layout around dist-electron/ (see electron-builder.yml).
 */
function keepModuleUrls(outdir: string): Plugin {
  return {
    name: 'keep-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const rel = relative(outdir, args.path).split(sep).join('/');
        const contents = source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}
