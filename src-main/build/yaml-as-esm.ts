import type { Plugin } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Bundles the `yaml` package from its ES module build (what its exports give a browser) instead
 * of the CommonJS one Node resolves: esbuild then hoists its modules into the bundle rather than
 * wrapping each in a function called at load, and drops what no import reaches (about 4 ms of a
 * runtime's start, bench:cold-start). The two builds are the same code but for three spots that
 * reach Node: a `!!binary` scalar of a YAML 1.1 document decodes to a Uint8Array rather than a
 * Buffer, yaml's own warnings go to console.warn rather than process.emitWarning, and the
 * LOG_TOKENS/LOG_STREAM debugging variables are not read.
 */
export function yamlAsEsm(): Plugin {
  const packageDir = dirname(createRequire(import.meta.url).resolve('yaml/package.json'));
  return {
    name: 'yaml-as-esm',
    setup(b) {
      b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(packageDir, 'browser', 'index.js') }));
    },
  };
}
