import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli-process.ts';

const temp = mkdtempSync(join(tmpdir(), 'flow-data-dir-unwritable-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

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
      const { code, stderr } = await runCli(args);
      expect({ command: args[0], code }).toEqual({ command: args[0], code: 1 });
      expect(stderr).toContain(`flow-studio ${args[0]}: the data folder ${dataDir} cannot be written (`);
      expect(stderr).toContain('give a folder this process can write with --data-dir');
    }
  }, 60_000);
});
