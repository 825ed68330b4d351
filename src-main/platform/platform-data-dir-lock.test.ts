import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir, startPlatformServer, type PlatformServer } from './index.ts';

let dir: string;
const servers: PlatformServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('a platform server on SQLite holds its data folder', () => {
  it('refuses a second server on the folder while the first runs, naming it and where it answers, and lets one start once it closed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-platform-lock-'));
    const first = await startPlatformServer({ dataDir: dir });
    servers.push(first);

    const second = await startPlatformServer({ dataDir: dir }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(DataDirInUseError);
    expect((second as DataDirInUseError).message).toContain(`the data folder ${dir} is in use by Flow Studio (pid ${process.pid}, at ${first.url}, a platform server since `);

    await servers.pop()!.close();
    servers.push(await startPlatformServer({ dataDir: dir }));
  });

  it('runs on a lock its caller took, which it leaves to the caller', async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-platform-lock-'));
    const lock = await lockDataDir(dir, 'web');
    try {
      const server = await startPlatformServer({ dataDir: dir, dataDirLock: lock });
      await server.close();
      // Still the caller's: nobody else gets the folder.
      await expect(lockDataDir(dir, 'platform')).rejects.toBeInstanceOf(DataDirInUseError);
      await expect(startPlatformServer({ dataDir: join(dir, 'elsewhere'), dataDirLock: lock })).rejects.toThrow(`the data folder lock given is on ${dir}`);
    } finally {
      lock.release();
    }
  });
});
