import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError } from '../platform/index.ts';
import { startStudioBackend } from './studio-backend.ts';
import { startStudioHarness, type StudioHarness } from './testing/studio-harness.ts';

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('one studio backend per data folder, whatever the shell', () => {
  it('refuses a second backend on the folder before it opens the workspace, leaves the first working, and lets one start once the first closed', async () => {
    harness = await startStudioHarness({});
    const dataDir = join(dirname(harness.workspaceDir), 'data');
    const otherWorkspace = join(dirname(harness.workspaceDir), 'second-workspace');

    const second = startStudioBackend({ workspaceDir: otherWorkspace, dataDir, shell: 'electron' });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(`the data folder ${dataDir} is in use by Flow Studio (pid ${process.pid}`);
    expect(existsSync(otherWorkspace)).toBe(false);
    expect((await harness.backend.api.workspaceInfo()).dataDir).toBe(dataDir);

    // A restart closes the backend (releasing the folder) and starts one on the same folder.
    harness = await harness.restart();
    expect((await harness.backend.api.workspaceInfo()).dataDir).toBe(dataDir);
  });
});
