#!/usr/bin/env node
// `npm start`: the Electron app when its binary is present; otherwise (as where the binary was
// never downloaded) one line saying so, then the web studio with its URL. `--build-only` builds
// the renderer and the Electron bundles and stops (used before packaging).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Found without require('electron'): that module downloads the binary when it is missing. */
function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(exe) ? exe : undefined;
}

async function buildAll() {
  register();
  const { ensureRendererBuilt } = await import('../src-main/studio/web/renderer-build.ts');
  await ensureRendererBuilt(root, (line) => console.log(line));
  const { buildElectron } = await import('../src-main/electron/build-electron.ts');
  await buildElectron(root);
}

const args = process.argv.slice(2);
const binary = electronBinary();
if (args.includes('--build-only')) {
  await buildAll();
} else if (binary) {
  await buildAll();
  const child = spawn(binary, [root, ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
} else {
  console.log('Electron is not available here (its binary was not downloaded), so Flow Studio starts in web mode instead.');
  process.argv = [process.argv[0], join(root, 'bin', 'flow-studio.js'), 'serve', ...args];
  await import('./flow-studio.js');
}
