import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli-process.ts';

const temp = mkdtempSync(join(tmpdir(), 'flow-run-no-definitions-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/**
 * Runs the CLI until it exits, or until it reports its platform services (it got as far as
 * running then, and is stopped): `code` is null for a command that would have kept running.
 */
async function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const run = await runCli(args, { stopWhen: (output) => output.includes('"msg":"platform services:') });
  return { code: run.stopped ? null : run.code, stderr: run.stderr };
}

describe('flow-studio run and validate on a folder without definitions', () => {
  const empty = join(temp, 'flows');
  mkdirSync(join(empty, 'template'), { recursive: true });
  // A flow test alone is not a definition.
  writeFileSync(join(empty, 'orders.test.yaml'), 'tests: {}\n');

  it('run refuses to start, naming the folder, instead of running no flow', async () => {
    const { code, stderr } = await cli(['run', empty, '--data-dir', join(temp, 'platform')]);
    expect(code).toBe(1);
    expect(stderr).toContain(`flow-studio run: no flow definitions under ${empty}`);
  }, 30_000);

  it('validate fails, naming the folder, instead of passing with nothing checked', async () => {
    const { code, stderr } = await cli(['validate', empty]);
    expect(code).toBe(1);
    expect(stderr).toContain(`flow-studio validate: no flow definitions under ${empty}`);
  }, 30_000);

  it('run and validate name a path that does not exist', async () => {
    const missing = join(temp, 'no-such-folder');
    for (const command of ['run', 'validate']) {
      const { code, stderr } = await cli([command, missing]);
      expect(code).toBe(1);
      expect(stderr).toContain(`flow-studio ${command}: ${missing} does not exist`);
    }
  }, 30_000);
});
