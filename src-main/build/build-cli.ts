import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { keepModuleUrls } from './keep-module-urls.ts';
import { yamlAsEsm } from './yaml-as-esm.ts';

/** The entries of the shipped build, named as the code that starts them expects (dist-electron/<name>.js). */
const ENTRIES = {
  cli: 'src-main/cli.ts',
  // Worker threads start from files of their own; otel-export.ts, telemetry-writer.ts and history-thread.ts start
  // these bundles where the sources are not shipped.
  'otel-worker': 'src-main/runtime/telemetry/otel-worker.ts',
  'telemetry-writer-worker': 'src-main/platform/store/sqlite/telemetry-writer-worker.ts',
  // The studio's history writer (history-thread.ts), for `flow-studio serve` from the build.
  'history-thread-worker': 'src-main/studio/state/history-thread-worker.ts',
};

/**
 * What stays a package loaded from node_modules at run time: native code (better-sqlite3 and the
 * `bindings` it loads its addon with), packages our code requires synchronously on first use (bson,
 * croner), optional peers a bundled package asks for only when present
 * (compression, Kerberos and cloud auth for MongoDB, native speed-ups for ws, pg-native), the
 * Electron shell, and development tools (vite builds the studio UI from a source checkout; tsx
 * starts workers where the sources are).
 */
const EXTERNAL = [
  'better-sqlite3',
  'bindings',
  // One copy of BSON per process: the docstore's extended JSON requires it on first use
  // (extended-json.ts) and the driver, bundled, requires the same file.
  'bson',
  // Required on the first cron expression parsed (blocks/schedule/cron.ts), not carried by the
  // runtime's modules (the front door exports parseCron, so they reach it).
  'croner',
  'electron',
  'vite',
  'tsx',
  '@aws-sdk/credential-providers',
  '@mongodb-js/zstd',
  'gcp-metadata',
  'kerberos',
  'mongodb-client-encryption',
  'snappy',
  'socks',
  'bufferutil',
  'utf-8-validate',
  'pg-native',
  'pg-cloudflare',
  'fsevents',
];

/**
 * Bundled CommonJS packages call `require` for Node's built-ins and for the external packages; an
 * ES module has no `require`, so every output file gets one of its own, made on its first call
 * (most files never call it, and making one for each file loaded took about a millisecond of a
 * start). Bundled code only calls it (esbuild's own helper applies it), never reads its
 * properties (`require.resolve`), which a plain function would not have.
 */
const REQUIRE_BANNER =
  "import { createRequire as __flowStudioCreateRequire } from 'node:module'; let __flowStudioRequire; const require = (...id) => (__flowStudioRequire ??= __flowStudioCreateRequire(import.meta.url))(...id);";

export interface CliBuild {
  /** Where the sources are (the repository). */
  sourceRoot: string;
  /** Where the package is laid out; its build lands in `<packageRoot>/dist-electron`. The repository itself by default. */
  packageRoot?: string;
}

/**
 * Builds what `flow-studio` runs from a package or a container image: the CLI and its worker
 * entries as ES modules, with code splitting so each command and each module the code imports
 * with `await import()` stays a chunk of its own, loaded on first use as from the sources.
 * Packages are bundled too (Node resolves one file instead of hundreds: undici alone is 111 files
 * and took longer to find and load than the rest of a start), except EXTERNAL's; source maps are written beside every file so stack traces name the
 * TypeScript lines (bin/flow-studio.js turns them on).
 */
export async function buildCli({ sourceRoot, packageRoot = sourceRoot }: CliBuild): Promise<void> {
  const outdir = join(packageRoot, 'dist-electron');
  // Chunks have content hashes in their names: a rebuild would otherwise leave the old ones behind.
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(sourceRoot, file)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: REQUIRE_BANNER },
    // Workers start from their bundles beside this build, even where the sources are (shared/ts-worker-boot.ts).
    define: { FLOW_STUDIO_BUILT: 'true' },
    sourcemap: true,
    // Whitespace and syntax only: a third less for Node to read, parse and keep (about 10 ms of a
    // runtime's start and 4 MB of its memory, bench:cold-start); names stay as written, so a stack
    // trace reads the same without its map.
    minifyWhitespace: true,
    minifySyntax: true,
    // Stack traces need the mappings only; the sources' text would triple the maps Node reads at start.
    sourcesContent: false,
    chunkNames: '[name]-[hash]',
    logLevel: 'warning',
    plugins: [yamlAsEsm(), keepModuleUrls(outdir, { sourceRoot, packageRoot })],
  });
}
