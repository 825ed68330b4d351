/**
 * The code of a worker thread whose entry is a TypeScript file, run from sources through tsx.
 * A worker does not inherit its parent's loader, and `--import tsx` in its execArgv did not reach
 * it on Node 20 (the worker died on "Unknown file extension .ts"), so this small CommonJS script,
 * started with `eval: true`, registers tsx's ESM loader itself and then imports the entry.
 *
 * It expects `workerData.boot = { tsxPackage, entry }`: the path of tsx's package.json as the
 * parent resolves it (`createRequire(import.meta.url).resolve('tsx/package.json')`, which also
 * works under vitest, unlike import.meta.resolve), and the entry's file URL. The loader is found
 * through the package's own exports map. Builds that bundle the entry (Electron) start the
 * bundle directly instead.
 */
export const TS_WORKER_BOOT = `const { workerData } = require('node:worker_threads');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const pkg = workerData.boot.tsxPackage;
const api = pathToFileURL(join(dirname(pkg), require(pkg).exports['./esm/api'].import.default)).href;
import(api).then((tsx) => { tsx.register(); return import(workerData.boot.entry); });`;

/** Set by `npm run build` (src-main/build/build-cli.ts) in the JavaScript it makes; absent where the sources run. */
declare const FLOW_STUDIO_BUILT: boolean | undefined;

/**
 * True in the built CLI, whose workers are built beside it: started from those bundles even
 * where the sources are (a development clone), so a built process runs its own code and no
 * TypeScript loader, as it does from a package.
 */
export const runningBuilt = typeof FLOW_STUDIO_BUILT !== 'undefined' && FLOW_STUDIO_BUILT;

/** What `new Worker(target, options)` takes for a worker started as workerStart says. */
export interface WorkerStart {
  target: string | URL;
  options: { eval: boolean; workerData: unknown };
}

/**
 * How to start the worker whose entry is the TypeScript file `source`: booted through tsx where
 * the sources run (`tsxPackage` is asked only then), else from `bundle`, its build (the CLI's or
 * Electron's).
 * The worker finds `data` as its workerData either way.
 */
export function workerStart(source: URL, bundle: URL, where: { sourceExists: boolean; tsxPackage: () => string }, data: Record<string, unknown>): WorkerStart {
  if (runningBuilt || !where.sourceExists) return { target: bundle, options: { eval: false, workerData: data } };
  return { target: TS_WORKER_BOOT, options: { eval: true, workerData: { ...data, boot: { tsxPackage: where.tsxPackage(), entry: source.href } } } };
}
