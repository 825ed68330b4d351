import type { FileDiff } from '../../../shared/resource-types.ts';
import type { DefinitionChange, RunSummary } from '../../../shared/trace-types.ts';
import { diffLines } from '../resources/line-diff.ts';

/** The files a version of an integration's definition was loaded from, when the studio kept them. */
export type DefinitionFilesOf = (integration: string, digest: string) => Array<{ file: string; text: string }> | undefined;

/**
 * How the definition changed between the versions that served two runs (A the earlier): every
 * definition file added, removed or changed, with its line hunks. Undefined when both runs came
 * from the same version, or from different integrations.
 */
export function definitionChange(a: RunSummary, b: RunSummary, filesOf: DefinitionFilesOf | undefined): DefinitionChange | undefined {
  if (!a.version || !b.version || a.integration !== b.integration || a.version.digest === b.version.digest) return undefined;
  const change: DefinitionChange = { a: a.version, b: b.version, files: [] };
  const before = filesOf?.(a.integration, a.version.digest);
  const after = filesOf?.(b.integration, b.version.digest);
  if (!before || !after) {
    change.note = `the files of v${(before ? b : a).version!.generation} were not kept, so only the versions are compared`;
    return change;
  }
  const old = new Map(before.map((f) => [f.file, f.text]));
  const now = new Map(after.map((f) => [f.file, f.text]));
  for (const path of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const was = old.get(path);
    const is = now.get(path);
    if (was === is) continue;
    const status: FileDiff['status'] = was === undefined ? 'added' : is === undefined ? 'removed' : 'changed';
    change.files.push({ path, area: 'definition', status, hunks: diffLines(was ?? '', is ?? '') });
  }
  return change;
}
