import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('flow-studio test --grep', () => {
  it('fails, naming the text, when no test name contains it, instead of passing having run nothing', async () => {
    const child = spawn(process.execPath, ['bin/flow-studio.js', 'test', 'examples/json-api', '--grep', 'refuses an itme'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.resume();
    // 'close': both pipes have been read to their end.
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect(stderr).toContain('flow-studio test: no test whose name contains "refuses an itme" under examples/json-api');
    expect(code).toBe(1);
  }, 60_000);
});
