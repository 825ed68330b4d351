import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './test-support/cli-process.ts';

// A real full disk: a 1 MiB tmpfs, which only root may mount (CI runs as root; where mounting is
// not allowed the suite says so and is skipped). SQLite answers SQLITE_FULL on it, the OS ENOSPC.
const disk = mkdtempSync(join(tmpdir(), 'flow-disk-full-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk]).status === 0;
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!mounted) console.warn(`disk-full.test.ts skipped: cannot mount a small tmpfs on ${disk} (needs root)`);
});
afterAll(async () => {
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => (c.once('close', r), c.kill('SIGKILL'))) : undefined)));
  if (mounted) spawnSync('umount', [disk]);
  rmSync(disk, { recursive: true, force: true });
});

describe.skipIf(!mounted)('a full disk under the data folder', () => {
  const dataDir = join(disk, 'platform');

  it('flow-studio platform: a write that finds the disk full is answered, and logged in one line, naming the data folder and what to do', async () => {
    const child = spawn(process.execPath, ['bin/flow-studio.js', 'platform', '--port', '0', '--data-dir', dataDir, '--no-token'], {
      cwd: process.cwd(),
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    await expect.poll(() => /listening on (http:\/\/\S+)/.exec(stdout)?.[1]).toBeTruthy();
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1];

    const value = 'x'.repeat(60_000);
    let refused: Response | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await fetch(`${url}/v1/kv/user/entry?key=k${i}`, { method: 'PUT', body: value });
      if (res.status !== 201) refused = res;
    }
    expect(refused?.status).toBe(500);
    const answer = (await refused!.json()) as { error: { code: string; message: string } };
    // No code of its own: the contract declares none for a full disk, so it stays internal_error.
    expect(answer.error.code).toBe('internal_error');
    expect(answer.error.message).toBe(
      `the platform server failed on PUT /v1/kv/user/entry: the disk holding the data folder ${dataDir} is full (database or disk is full): free space on it, or start again with --data-dir on a disk with room`,
    );
    await expect.poll(() => stderr).toContain(`platform server: PUT /v1/kv/user/entry: the disk holding the data folder ${dataDir} is full`);
    expect(stderr).not.toMatch(/^\s+at /m);
    child.kill('SIGKILL');
  });

  it('flow-studio run: a start on a full disk stops naming the data folder, not with a bare ENOSPC', async () => {
    const run = await runCli(['run', 'examples/json-api', '--data-dir', dataDir], { stopWhen: (out) => out.includes('runtime started') });
    expect(run.stopped).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^flow-studio run: the disk holding the data folder ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is full \\((ENOSPC|database or disk is full)[^)]*\\): free space on it, or start again with --data-dir on a disk with room\\n$`));
  });
});
