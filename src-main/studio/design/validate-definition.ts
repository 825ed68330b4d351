import type { DefinitionEdit } from '../../../shared/flow-design.ts';
import type { RunProblem } from '../../../shared/studio-api.ts';
import { type ComponentRegistry, errorMessage, loadDefinition, LoadError, readDefinitions } from '../../runtime/index.ts';
import { StudioError } from '../studio-error.ts';
import type { Workspace } from '../workspace.ts';

/**
 * Runs the runtime's own loader in `validate` mode over an integration, with the editor's
 * unsaved buffers in place of their files, so the editor shows exactly what `flow-studio
 * validate` and a start would say. No variable values are passed: only the defaults written in
 * the definition apply, so no bound value (a secret) can surface in a message.
 */
export function validateDefinition(workspace: Workspace, registry: ComponentRegistry, integration: string, edits: readonly DefinitionEdit[]): RunProblem[] {
  const dir = workspace.dirOf(integration);
  const files = workspace.summary(integration).definitionFiles;
  const byFile = new Map<string, string>();
  for (const edit of Array.isArray(edits) ? edits : []) {
    if (!edit || typeof edit.file !== 'string' || typeof edit.text !== 'string') throw new StudioError('each edit is {file, text}');
    if (!files.includes(edit.file)) throw new StudioError(`"${edit.file}" is not a definition file of "${integration}"; definitions are the .yaml files at its root`);
    byFile.set(edit.file, edit.text);
  }
  const onDisk = readDefinitions(files.filter((f) => !byFile.has(f)).map((f) => workspace.pathIn(integration, f))).map((t) => ({ file: t.file.slice(dir.length + 1), text: t.text }));
  // Load order is the sorted file order, as at run time, so duplicate names point the same way.
  const texts = [...onDisk, ...[...byFile].map(([file, text]) => ({ file, text }))].sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
  try {
    loadDefinition(texts, { registry, mode: 'validate' });
    return [];
  } catch (err) {
    if (err instanceof LoadError) {
      return err.problems.map((p) => ({ file: p.location.file, line: p.location.line, col: p.location.col, path: p.path, message: p.message }));
    }
    return [{ file: texts[0]?.file ?? '', line: 1, col: 1, path: '', message: `the definition could not be checked: ${errorMessage(err)}` }];
  }
}
