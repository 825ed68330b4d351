import type { IntegrationSummary } from '../../../../shared/studio-api.ts';
import { studio } from '../../../api/studio-client.ts';
import { fileKey, type FileRef } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { editorCommands } from '../editor-commands.ts';

/** Runs a file operation; a refusal (a name taken, a bad name) shows as the panel's notice. */
async function attempt<T>(what: string, op: () => Promise<T>): Promise<T | undefined> {
  const { setNotice } = useStudio.getState();
  try {
    const result = await op();
    setNotice(undefined);
    return result;
  } catch (err) {
    setNotice(`could not ${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** Puts a changed integration into the list at once, before the workspace watcher reports it. */
function applySummary(summary: IntegrationSummary): void {
  const { integrations, setIntegrations } = useStudio.getState();
  const others = integrations.filter((i) => i.id !== summary.id);
  // Without definition files a folder is not an integration (the workspace lists it no more).
  const next = summary.definitionFiles.length > 0 ? [...others, summary] : others;
  setIntegrations(next.sort((a, b) => a.id.localeCompare(b.id)));
}

export async function createIntegration(id: string): Promise<void> {
  const summary = await attempt(`create ${id}`, () => studio.createIntegration(id.trim()));
  if (!summary) return;
  applySummary(summary);
  useStudio.getState().setOpenFile({ integration: summary.id, file: summary.definitionFiles[0] });
}

export async function createFile(integration: string, name: string): Promise<void> {
  const file = withExtension(name.trim());
  const summary = await attempt(`create ${file}`, () => studio.createDefinitionFile(integration, file));
  if (!summary) return;
  applySummary(summary);
  useStudio.getState().setOpenFile({ integration, file });
}

/** Renames a file; unsaved edits are saved first so nothing typed is lost. */
export async function renameFile(ref: FileRef, to: string): Promise<void> {
  const target = withExtension(to.trim());
  if (target === ref.file) return;
  const { openFile, dirtyFiles } = useStudio.getState();
  const isOpen = openFile?.integration === ref.integration && openFile.file === ref.file;
  if (isOpen && dirtyFiles[fileKey(ref)]) await editorCommands()?.save();
  const summary = await attempt(`rename ${ref.file}`, () => studio.renameDefinitionFile(ref.integration, ref.file, target));
  if (!summary) return;
  applySummary(summary);
  if (isOpen) useStudio.getState().setOpenFile({ integration: ref.integration, file: target });
}

export async function deleteFile(ref: FileRef): Promise<void> {
  const summary = await attempt(`delete ${ref.file}`, () => studio.deleteDefinitionFile(ref.integration, ref.file));
  if (!summary) return;
  applySummary(summary);
  const { openFile, setOpenFile, setFileDirty } = useStudio.getState();
  setFileDirty(fileKey(ref), false);
  if (openFile?.integration === ref.integration && openFile.file === ref.file) {
    setOpenFile(summary.definitionFiles[0] ? { integration: ref.integration, file: summary.definitionFiles[0] } : undefined);
  }
}

function withExtension(name: string): string {
  return /\.ya?ml$/.test(name) ? name : `${name}.yaml`;
}
