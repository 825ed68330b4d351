import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { IntegrationFiles, Management } from '../../platform/index.ts';
import type { Workspace } from '../workspace.ts';
import { namesIn, RESOURCE_KINDS } from './resource-files.ts';

/**
 * The working copy of an integration as the platform holds one: its definition files and its
 * resources in declared order (env files in path order, then templates), read from the
 * workspace folder, which stays the truth.
 */
export function workingCopyFiles(workspace: Workspace, integration: string): IntegrationFiles {
  const definitions = workspace.summary(integration).definitionFiles.map((file) => ({ file, content: readFileSync(workspace.pathIn(integration, file)) }));
  const resources = RESOURCE_KINDS.flatMap((kind) =>
    namesIn(workspace.pathIn(integration, kind)).map((name) => ({ kind, name, content: readFileSync(workspace.pathIn(integration, kind, ...name.split('/'))) })),
  );
  return { definitions, resources };
}

/** The env resources a studio run folds in, in declared order. */
export function envResourceNames(workspace: Workspace, integration: string): string[] {
  return namesIn(workspace.pathIn(integration, 'env'));
}

/**
 * Brings the platform's copy of the integration up to date with the folder, in one transaction.
 * Unchanged resources keep their version and author, so this can run before every tag.
 */
export async function syncWorkingCopy(management: Management, workspace: Workspace, integration: string, actor: string): Promise<void> {
  await management.integrations.replace(integration, workingCopyFiles(workspace, integration), actor);
}

/** Who the studio's writes are recorded as: the OS user running it. */
export function studioActor(): string {
  try {
    const name = userInfo().username;
    if (name) return name;
  } catch {
    // No user entry (some containers): fall through.
  }
  return 'studio';
}
