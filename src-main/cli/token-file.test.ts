import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'flow-token-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Both printed Node's bare "ENOENT: no such file or directory, open '…'" (manifest: an empty
// file sent no token and was answered 401), naming neither the option nor what it should hold.
describe('--token-file that cannot be read or is empty', () => {
  const missing = join(dir, 'no-such.token');
  const empty = join(dir, 'empty.token');
  writeFileSync(empty, '\n');

  it('flow-studio platform names the option and the file, and serves nothing', async () => {
    for (const [file, says] of [
      [missing, `flow-studio platform: --token-file ${missing}: cannot read it: ENOENT`],
      [empty, `flow-studio platform: --token-file ${empty} is empty; it should hold the platform's bearer token`],
    ]) {
      const res = await runCli(['platform', '--port', '0', '--data-dir', join(dir, 'data'), '--token-file', file], { stopWhen: (out) => out.includes('listening') });
      expect(res.stopped, res.output).toBe(false);
      expect(res.code).toBe(1);
      expect(res.output).toContain(says);
    }
  }, 30_000);

  it('flow-studio manifest names the option and the file before calling the platform', async () => {
    for (const [file, says] of [
      [missing, `flow-studio manifest: --token-file ${missing}: cannot read it: ENOENT`],
      [empty, `flow-studio manifest: --token-file ${empty} is empty`],
    ]) {
      const res = await runCli(['manifest', '--platform', 'http://127.0.0.1:9', '--token-file', file, '--deployment', 'orders-prod']);
      expect(res.code).toBe(1);
      expect(res.output).toContain(says);
    }
  }, 30_000);
});
