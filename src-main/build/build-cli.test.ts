import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from './build-cli.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// A package laid out as `npm pack` ships it (package.json, bin/, dist-electron/, shared/*.json,
// examples/), without the sources. Inside the repository so its packages resolve from node_modules.
mkdirSync(join(repo, '.tmp'), { recursive: true });
const pkg = mkdtempSync(join(repo, '.tmp', 'cli-package-'));
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

beforeAll(async () => {
  await buildCli({ sourceRoot: repo, packageRoot: pkg });
  copyFileSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  mkdirSync(join(pkg, 'bin'));
  copyFileSync(join(repo, 'bin', 'flow-studio.js'), join(pkg, 'bin', 'flow-studio.js'));
  mkdirSync(join(pkg, 'shared'));
  for (const f of readdirSync(join(repo, 'shared')).filter((f) => f.endsWith('.json'))) copyFileSync(join(repo, 'shared', f), join(pkg, 'shared', f));
  cpSync(join(repo, 'examples', 'orders-api'), join(pkg, 'examples', 'orders-api'), { recursive: true });
}, 60_000);

const cli = (): string => join(pkg, 'bin', 'flow-studio.js');

describe('the built CLI, as an installed package runs it (no sources, no TypeScript loader)', () => {
  it('is JavaScript with source maps that point back at the TypeScript sources', () => {
    expect(existsSync(join(pkg, 'src-main'))).toBe(false);
    const entry = readFileSync(join(pkg, 'dist-electron', 'cli.js'), 'utf8');
    expect(entry).toMatch(/\/\/# sourceMappingURL=cli\.js\.map\s*$/);
    const map = JSON.parse(readFileSync(join(pkg, 'dist-electron', 'cli.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('src-main/cli.ts'))).toBe(true);
    // Each command stays a chunk of its own, loaded only when asked for.
    expect(entry).toMatch(/import\("\.\/run-[A-Z0-9]+\.js"\)/);
  });

  it('validates an example', () => {
    const run = spawnSync(process.execPath, [cli(), 'validate', join(pkg, 'examples', 'orders-api')], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stdout + run.stderr).toContain('ok: 1 flow in 1 file');
    expect(run.status).toBe(0);
  });

  it('runs an example with its embedded platform, answers a request and stops cleanly', async () => {
    const env: Record<string, string | undefined> = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('FLOW_PLATFORM_API') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
    const child = spawn(process.execPath, [cli(), 'run', join(pkg, 'examples', 'orders-api'), '--data-dir', join(pkg, 'data')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const ready = /"msg":"connector web ready".*?"url":"(http:\/\/127\.0\.0\.1:\d+)"/;
      await expect.poll(() => ready.test(out), { timeout: 30_000 }).toBe(true);
      const res = await fetch(`${ready.exec(out)![1]}/orders/price`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer: 'ana', items: [{ price: 2.5, quantity: 4 }] }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ customer: 'ana', items: 1, lineTotals: [10] });
      const exit = new Promise<number | null>((r) => child.once('close', r));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(out).not.toMatch(/error|Unknown file extension/i);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);
});
