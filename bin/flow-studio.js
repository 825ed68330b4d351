#!/usr/bin/env node
// The package's CLI entry. An installed package and the container image run the JavaScript built
// ahead of time (dist-electron/cli.js, `npm run build`; the sources do not ship), whose stack
// traces name the TypeScript file and line (it reads its source maps when a trace needs them:
// src-main/cli/lazy-source-maps.ts). A development clone, where the sources are, runs them through
// the tsx loader instead, so an edit needs no build.
import { existsSync } from 'node:fs';

const sources = new URL('../src-main/cli.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist-electron/cli.js');
}
