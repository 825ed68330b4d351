#!/usr/bin/env node
// `npm run build`: the JavaScript that ships (dist-electron/cli.js, its chunks and workers), built
// by src-main/build/build-cli.ts; the build script itself is TypeScript, run through tsx.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildCli } = await import('../src-main/build/build-cli.ts');
const started = performance.now();
await buildCli({ sourceRoot: root });
console.log(`built dist-electron/cli.js in ${Math.round(performance.now() - started)} ms`);
