import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopWorkspace, REMEMBERED_WORKSPACE_FILE, rememberedWorkspace, rememberWorkspace, withoutWorkspaceArgument, workspaceArgument } from './desktop-workspace.ts';

let temp: string;
let dataDir: string;
beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'desktop-workspace-'));
  dataDir = join(temp, 'userData');
});
afterEach(() => rmSync(temp, { recursive: true, force: true }));

describe("the desktop studio's workspace", () => {
  it('opens ~/FlowStudio with the samples when nothing names another', () => {
    expect(desktopWorkspace(['.'], {}, dataDir)).toEqual({ dir: join(homedir(), 'FlowStudio'), from: 'default', samples: true });
  });

  it('reopens the folder chosen last, without filling it with samples', () => {
    const chosen = join(temp, 'my-integrations');
    mkdirSync(chosen);
    rememberWorkspace(dataDir, chosen);
    expect(desktopWorkspace(['.'], {}, dataDir)).toEqual({ dir: chosen, from: 'remembered', samples: false });
    // Written whole: no temporary file stays beside it.
    expect(readdirSync(dataDir)).toEqual([REMEMBERED_WORKSPACE_FILE]);
    expect(JSON.parse(readFileSync(join(dataDir, REMEMBERED_WORKSPACE_FILE), 'utf8'))).toEqual({ workspace: chosen });
  });

  it('lets --workspace, then FLOW_STUDIO_WORKSPACE, win over the folder remembered', () => {
    const chosen = join(temp, 'remembered');
    mkdirSync(chosen);
    rememberWorkspace(dataDir, chosen);
    expect(desktopWorkspace(['.', '--workspace', 'repo'], { FLOW_STUDIO_WORKSPACE: '/srv/env' }, dataDir, '/home/ana')).toEqual({ dir: '/home/ana/repo', from: 'argument', samples: false });
    expect(desktopWorkspace(['.', '--workspace=/srv/arg'], {}, dataDir)).toMatchObject({ dir: '/srv/arg', from: 'argument' });
    expect(desktopWorkspace(['.'], { FLOW_STUDIO_WORKSPACE: '/srv/env' }, dataDir)).toEqual({ dir: '/srv/env', from: 'environment', samples: false });
  });

  it('forgets a folder that is gone, and a damaged or foreign file, rather than not starting', () => {
    const chosen = join(temp, 'deleted-later');
    mkdirSync(chosen);
    rememberWorkspace(dataDir, chosen);
    rmSync(chosen, { recursive: true });
    expect(desktopWorkspace([], {}, dataDir).from).toBe('default');
    for (const text of ['{"workspace": "relative/path"}', '{"workspace": 42}', '{ not json', '[]']) {
      writeFileSync(join(dataDir, REMEMBERED_WORKSPACE_FILE), text);
      expect(rememberedWorkspace(dataDir), text).toBeUndefined();
    }
    expect(() => rememberWorkspace(dataDir, 'relative')).toThrow('absolute path, not "relative"');
  });

  it('reads --workspace from the command line and drops it for the relaunch after Open Workspace…', () => {
    expect(workspaceArgument(['.', '--workspace', '/a'])).toBe('/a');
    expect(workspaceArgument(['.', '--workspace', '--inspect'])).toBeUndefined();
    expect(workspaceArgument(['.', '--workspace='])).toBeUndefined();
    expect(withoutWorkspaceArgument(['.', '--workspace', '/a', '--inspect'])).toEqual(['.', '--inspect']);
    expect(withoutWorkspaceArgument(['--workspace=/a', '.'])).toEqual(['.']);
  });
});
