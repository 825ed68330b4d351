import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt, rendererIsStale } from './renderer-build.ts';

const appRoot = mkdtempSync(join(tmpdir(), 'renderer-build-'));
afterAll(() => rmSync(appRoot, { recursive: true, force: true }));

/** A renderer as small as ours is shaped: src-renderer/ with an entry whose dev-only branch a production build drops. */
function writeApp(): void {
  mkdirSync(join(appRoot, 'src-renderer'), { recursive: true });
  writeFileSync(join(appRoot, 'vite.config.ts'), "export default { build: { outDir: '../dist-renderer', emptyOutDir: true } };\n");
  writeFileSync(join(appRoot, 'src-renderer', 'index.html'), '<!doctype html><title>app</title><script type="module" src="./main.js"></script>\n');
  writeFileSync(
    join(appRoot, 'src-renderer', 'main.js'),
    "if (process.env.NODE_ENV !== 'production') console.log('development build');\nconsole.log('mode', process.env.NODE_ENV);\n",
  );
}

function builtScript(): string {
  const assets = join(appRoot, 'dist-renderer', 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(assets, name), 'utf8'))
    .join('\n');
}

describe('the studio UI built on first start', () => {
  it('is a production build even when serve runs under NODE_ENV=test, and the caller keeps its NODE_ENV', async () => {
    // Vitest sets NODE_ENV=test, as it does for every `flow-studio serve` a test spawns.
    expect(process.env.NODE_ENV).toBe('test');
    writeApp();
    expect(rendererIsStale(appRoot)).toBe(true);
    await ensureRendererBuilt(appRoot);
    const script = builtScript();
    expect(script).toContain('"production"');
    expect(script).not.toContain('development build');
    expect(script).not.toContain('"test"');
    expect(process.env.NODE_ENV).toBe('test');
    expect(rendererIsStale(appRoot)).toBe(false);
  });
});
