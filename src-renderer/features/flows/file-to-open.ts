import type { IntegrationSummary } from '../../../shared/studio-api.ts';
import type { FileRef } from '../../store/flows-slice.ts';

/**
 * The file the editor should show: the open one while it exists; when it is gone (deleted or
 * renamed elsewhere), the first definition file of the same integration, so deleting a file keeps
 * the user where they were whether the workspace event or the delete's answer arrives first;
 * with nothing to keep, the first file of the first integration that runs on this machine as it
 * is (one that needs an outside server would fail on the first Run).
 */
export function fileToOpen(openFile: FileRef | undefined, integrations: readonly IntegrationSummary[]): FileRef | undefined {
  if (openFile) {
    const own = integrations.find((i) => i.id === openFile.integration);
    if (own && (own.definitionFiles.includes(openFile.file) || own.testFiles.includes(openFile.file))) return openFile;
    if (own && own.definitionFiles.length > 0) return { integration: own.id, file: own.definitionFiles[0] };
  }
  const withFiles = integrations.filter((i) => i.definitionFiles.length > 0);
  const first = withFiles.find((i) => !i.needs) ?? withFiles[0];
  return first ? { integration: first.id, file: first.definitionFiles[0] } : undefined;
}
