import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = join(process.cwd(), 'bin/flow-studio.js');

/** `npm test` runs the examples' flow tests through the CLI, exactly as a user or CI would. */
describe('flow-studio test examples/', () => {
  it('every example integration ships a test file', () => {
    const integrations = readdirSync('examples').filter((n) => statSync(join('examples', n)).isDirectory());
    const untested = integrations.filter((n) => !readdirSync(join('examples', n)).some((f) => f.endsWith('.test.yaml')));
    expect(untested).toEqual([]);
  });

  it('passes, printing one line per test and the summary', async () => {
    let stdout: string;
    let code = 0;
    try {
      ({ stdout } = await run(process.execPath, [cli, 'test', 'examples/'], { timeout: 240_000 }));
    } catch (err) {
      ({ stdout, code } = err as { stdout: string; code: number });
    }
    const failed = stdout.split('\n').filter((l) => !l.startsWith('✓ ') && l.trim() !== '' && !/^\d+ passed/.test(l));
    expect(failed.join('\n')).toBe('');
    expect(stdout).toMatch(/^\d+ passed, 0 failed \(\d+ tests, \d+ ms\)$/m);
    expect(code).toBe(0);
  }, 300_000);
});
