import { build } from 'esbuild';
import { basename, join } from 'node:path';
import { keepModuleUrls } from '../build/keep-module-urls.ts';

/**
 * Bundles the Electron entry points: main and the workers (OTLP export, telemetry writer, studio history) as ESM (packages stay
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
  // Workers start from files of their own; sources are not shipped, so otel-export.ts,
  // telemetry-writer.ts and history-thread.ts start these bundles instead (dist-electron/<name>.js).
  const workers = [join('runtime', 'telemetry', 'otel-worker.ts'), join('platform', 'store', 'sqlite', 'telemetry-writer-worker.ts'), join('studio', 'state', 'history-thread-worker.ts')];
  for (const worker of workers) {
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
