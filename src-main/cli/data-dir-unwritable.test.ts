import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const temp = mkdtempSync(join(tmpdir(), 'flow-data-dir-unwritable-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
  const child = spawn(process.execPath, ['bin/flow-studio.js', ...args], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.resume();
  // 'close': both pipes have been read to their end.
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

describe('a --data-dir that cannot be written', () => {
  // A folder that cannot be made (a file in the way here; a read-only mount in a pod, where the
  // bare error said ENOENT of the folder, or SQLite's "unable to open database file" naming nothing).
  const blocked = join(temp, 'volume');
  writeFileSync(blocked, 'not a folder');
  const dataDir = join(blocked, 'platform');

  it('stops run, platform and serve naming the data folder, why, and the option that moves it', async () => {
    for (const args of [
      ['run', 'examples/json-api', '--data-dir', dataDir],
      ['platform', '--port', '0', '--data-dir', dataDir],
      ['serve', '--port', '0', '--workspace', join(temp, 'ws'), '--data-dir', dataDir],
    ]) {
      const { code, stderr } = await cli(args);
      expect({ command: args[0], code }).toEqual({ command: args[0], code: 1 });
      expect(stderr).toContain(`flow-studio ${args[0]}: the data folder ${dataDir} cannot be written (`);
      expect(stderr).toContain('give a folder this process can write with --data-dir');
    }
  }, 60_000);
});
