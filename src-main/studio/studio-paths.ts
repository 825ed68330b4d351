import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository (or packaged app) root, where examples/ and dist-renderer/ live. */
export const appRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Where the sample integrations copied into a new workspace come from. */
export const examplesDir = join(appRoot, 'examples');

/** `--workspace`, else `FLOW_STUDIO_WORKSPACE`, else `~/FlowStudio`. */
export function defaultWorkspaceDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FLOW_STUDIO_WORKSPACE ? resolve(env.FLOW_STUDIO_WORKSPACE) : join(homedir(), 'FlowStudio');
}

/** `--data-dir`, else `$XDG_DATA_HOME/flow-studio`, else `~/.local/share/flow-studio`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME ? resolve(env.XDG_DATA_HOME) : join(homedir(), '.local', 'share');
  return join(base, 'flow-studio');
}
