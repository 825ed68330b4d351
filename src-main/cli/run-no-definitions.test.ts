import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const temp = mkdtempSync(join(tmpdir(), 'flow-run-no-definitions-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/**
 * Runs the CLI until it exits, or until it reports its platform services (it got as far as
 * running then, and is stopped): `code` is null for a command that would have kept running.
 */
function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
  const child = spawn(process.execPath, ['bin/flow-studio.js', ...args], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let running = false;
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (!running && stdout.includes('"msg":"platform services:')) {
      running = true;
      child.kill('SIGKILL');
    }
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // 'close': both pipes have been read to their end.
  return new Promise((resolve) => child.once('close', (code) => resolve({ code: running ? null : code, stderr })));
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
