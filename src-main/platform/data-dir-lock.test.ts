import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_DIR_HOLDER_FILE, DataDirInUseError, lockDataDir, type DataDirLock } from './data-dir-lock.ts';

let dataDir: string;
const held: DataDirLock[] = [];
const take = async (dir = dataDir, holderWaitMs?: number): Promise<DataDirLock> => {
  const lock = await lockDataDir(dir, 'web', { holderWaitMs });
  held.push(lock);
  return lock;
};
const refusal = async (dir = dataDir, holderWaitMs?: number): Promise<DataDirInUseError> => {
  const err = await take(dir, holderWaitMs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataDirInUseError);
  return err as DataDirInUseError;
};

afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the data folder lock', () => {
  it('refuses a second studio, naming the folder and the studio holding it, until the first releases it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
    const first = await take();
    const err = await refusal();
    expect(err.dataDir).toBe(dataDir);
    expect(err.holder).toMatchObject({ pid: process.pid, shell: 'web' });
    expect(err.message).toMatch(new RegExp(`^the data folder ${dataDir} is in use by Flow Studio \\(pid ${process.pid}, flow-studio serve since \\d{4}-`));
    expect(err.message).toContain(`kill ${process.pid}`);
    expect(err.message).toContain('flow-studio serve --data-dir <another folder>');

    first.release();
    expect(existsSync(join(dataDir, DATA_DIR_HOLDER_FILE))).toBe(false);
    await take();
  });

  it('tells a second studio where the first one is, without the launch token', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
    const first = await take();
    first.announce('http://127.0.0.1:4870/?token=secret-of-this-launch');
    const err = await refusal();
    expect(err.holder?.url).toBe('http://127.0.0.1:4870');
    expect(err.message).toContain(`(pid ${process.pid}, at http://127.0.0.1:4870, flow-studio serve since`);
    expect(readFileSync(join(dataDir, DATA_DIR_HOLDER_FILE), 'utf8')).not.toContain('secret-of-this-launch');
  });

  it('does not name a dead studio whose note was left behind', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
    await take();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dataDir, DATA_DIR_HOLDER_FILE), JSON.stringify({ pid: dead, since: '2026-01-01T00:00:00.000Z', shell: 'web' }));
    const err = await refusal(dataDir, 0);
    expect(err.holder).toBeUndefined();
    expect(err.message).toMatch(/is in use by another Flow Studio\. /);
    expect(err.message).not.toContain(String(dead));
  });

  it('lets studios on different folders run side by side', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
    await take(join(dataDir, 'one'));
    await take(join(dataDir, 'two'));
  });
});
