import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(join(repo, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(repo, '.tmp', 'lazy-source-maps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Line 5 throws; the build minifies it all onto one line.
const CHECKER = `export class Checker {
  check(value: number): number {
    if (value > 0) return value;
    // the failure
    throw new RangeError(\`not positive: \${value}\`);
  }
}
export function outer(value: number): number {
  return new Checker().check(value);
}
`;

// Run by plain node from a build as the CLI's (a test runner would transform the code it imports).
const ENTRY = `import { mapStackTracesLazily } from ${JSON.stringify(fileURLToPath(new URL('./lazy-source-maps.ts', import.meta.url)))};
import { outer } from './checker.ts';
const remove = mapStackTracesLazily();
try {
  outer(-1);
} catch (err) {
  console.log(err.stack);
}
const odd = { get name() { throw new Error('no'); } };
Error.captureStackTrace(odd);
console.log('---', odd.stack.split('\\n')[0]);
remove();
try {
  outer(-2);
} catch (err) {
  console.log('---', err.stack.split('\\n')[1]);
}
`;

let output = '';
beforeAll(async () => {
  writeFileSync(join(dir, 'checker.ts'), CHECKER);
  writeFileSync(join(dir, 'entry.ts'), ENTRY);
  await build({ entryPoints: [join(dir, 'entry.ts')], outfile: join(dir, 'out', 'entry.js'), bundle: true, format: 'esm', platform: 'node', sourcemap: true, sourcesContent: false, minifyWhitespace: true, minifySyntax: true, logLevel: 'silent' });
  const run = spawnSync(process.execPath, [join(dir, 'out', 'entry.js')], { encoding: 'utf8', timeout: 20_000 });
  output = run.stdout + run.stderr;
}, 30_000);

describe('stack traces of the built CLI', () => {
  it('name the TypeScript file, line and column of each built frame, as V8 writes a frame', () => {
    const lines = output.split('\n');
    expect(lines[0]).toBe('RangeError: not positive: -1');
    expect(lines[1]).toBe(`    at Checker.check (${join(dir, 'checker.ts')}:5:11)`);
    expect(lines[2]).toBe(`    at outer (${join(dir, 'checker.ts')}:9:24)`);
    expect(lines[3]).toBe(`    at ${join(dir, 'entry.ts')}:5:3`);
    expect(output.split('\n---')[0]).not.toMatch(/entry\.js:\d/);
  });

  it('writes an error whose name cannot be read as <error>, and, removed, leaves V8 its own frames', () => {
    const lines = output.split('\n').filter((l) => l.startsWith('--- '));
    expect(lines[0]).toBe('--- <error>');
    expect(lines[1]).toMatch(/^--- {5}at Checker\.check \(file:\/\/.*\/out\/entry\.js:\d+:\d+\)$/);
  });
});
