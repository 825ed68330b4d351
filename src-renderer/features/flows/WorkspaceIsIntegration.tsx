import type { WorkspaceInfo } from '../../../shared/studio-api.ts';
import { EmptyState } from '../../components/EmptyState.tsx';

/**
 * The empty workspace that holds flow definitions itself: someone opened one integration's folder
 * (as `flow-studio run` takes it) where the studio wants the folder of integrations above it.
 * Says which files it saw and the start that lists them, rather than "no integrations".
 */
export function WorkspaceIsIntegration({ workspace }: { workspace: WorkspaceInfo }) {
  const files = workspace.definitionsAtRoot;
  const parent = parentOf(workspace.root);
  const start = workspace.shell === 'web' ? `flow-studio serve --workspace ${quoted(parent)}` : `File → Open Workspace… ${parent}`;
  return (
    <EmptyState title="This folder is an integration, not a workspace">
      {workspace.root} holds flow definitions itself ({list(files)}), so the studio lists none of its flows: it shows the integrations in a workspace,
      one per sub-folder. Start the studio on the folder above (<code>{start}</code>), or move {files.length === 1 ? 'the file' : 'these files'} into a
      sub-folder of {workspace.root}.
    </EmptyState>
  );
}

function parentOf(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0) return trimmed;
  return cut === 0 ? trimmed.slice(0, 1) : trimmed.slice(0, cut);
}

function quoted(path: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

function list(files: readonly string[]): string {
  const shown = files.slice(0, 3).join(', ');
  return files.length > 3 ? `${shown} and ${files.length - 3} more` : shown;
}
