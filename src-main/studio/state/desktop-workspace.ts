import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { defaultWorkspaceDir } from '../studio-paths.ts';

/** In the app's data folder: the workspace the person last opened with File → Open Workspace…. */
export const REMEMBERED_WORKSPACE_FILE = 'workspace.json';

/** The folder the desktop studio opens, and why that one. */
export interface DesktopWorkspace {
  dir: string;
  from: 'argument' | 'environment' | 'remembered' | 'default';
  /** Only the default folder is filled with the samples when new: a folder a person chose is theirs. */
  samples: boolean;
}

/**
 * `--workspace DIR` (or `--workspace=DIR`) on the app's command line, else FLOW_STUDIO_WORKSPACE,
 * else the folder opened last (while it still exists), else ~/FlowStudio.
 */
export function desktopWorkspace(argv: readonly string[], env: NodeJS.ProcessEnv, dataDir: string, cwd = process.cwd()): DesktopWorkspace {
  const argument = workspaceArgument(argv);
  if (argument !== undefined) return { dir: resolve(cwd, argument), from: 'argument', samples: false };
  if (env.FLOW_STUDIO_WORKSPACE) return { dir: resolve(cwd, env.FLOW_STUDIO_WORKSPACE), from: 'environment', samples: false };
  const remembered = rememberedWorkspace(dataDir);
  if (remembered !== undefined) return { dir: remembered, from: 'remembered', samples: false };
  return { dir: defaultWorkspaceDir({}), from: 'default', samples: true };
}

/** The value of `--workspace` in an argv, undefined when absent or given without a value. */
export function workspaceArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--workspace=')) return arg.slice('--workspace='.length) || undefined;
    if (arg === '--workspace' && i + 1 < argv.length && !argv[i + 1].startsWith('--')) return argv[i + 1];
  }
  return undefined;
}

/** The argv without its `--workspace`, so a relaunch after Open Workspace… opens the folder remembered. */
export function withoutWorkspaceArgument(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--workspace=')) continue;
    if (argv[i] === '--workspace') {
      if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) i++;
      continue;
    }
    out.push(argv[i]);
  }
  return out;
}

/**
 * The folder remembered in `dataDir`, if it is still a folder. A damaged or foreign file is read
 * as nothing remembered: the studio then opens the default workspace rather than not starting.
 */
export function rememberedWorkspace(dataDir: string): string | undefined {
  let dir: unknown;
  try {
    dir = (JSON.parse(readFileSync(join(dataDir, REMEMBERED_WORKSPACE_FILE), 'utf8')) as { workspace?: unknown }).workspace;
  } catch {
    return undefined;
  }
  if (typeof dir !== 'string' || !isAbsolute(dir)) return undefined;
  try {
    return statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers `dir` as the workspace to open next; written whole (a temporary file renamed). */
export function rememberWorkspace(dataDir: string, dir: string): void {
  if (!isAbsolute(dir)) throw new Error(`the workspace to remember must be an absolute path, not "${dir}"`);
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, REMEMBERED_WORKSPACE_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ workspace: dir }, null, 2)}\n`);
  renameSync(temp, file);
}
