import { describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli-process.ts';

describe('flow-studio test --grep', () => {
  it('fails, naming the text, when no test name contains it, instead of passing having run nothing', async () => {
    const { code, stderr } = await runCli(['test', 'examples/json-api', '--grep', 'refuses an itme']);
    expect(stderr).toContain('flow-studio test: no test whose name contains "refuses an itme" under examples/json-api');
    expect(code).toBe(1);
  }, 60_000);
});
