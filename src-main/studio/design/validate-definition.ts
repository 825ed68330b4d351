import type { DefinitionEdit } from '../../../shared/flow-design.ts';
import type { RunProblem } from '../../../shared/studio-api.ts';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { type ComponentRegistry, errorMessage, loadDefinition, LoadError, type LoadProblem, readDefinitions } from '../../runtime/index.ts';
import { loadTestFile } from '../flow-tests/test-file-loader.ts';
import { StudioError } from '../studio-error.ts';
import type { Workspace } from '../workspace.ts';

/**
 * Runs the runtime's own loader in `validate` mode over an integration, with the editor's
 * unsaved buffers in place of their files, so the editor shows exactly what `flow-studio
 * validate` and a start would say; its flow tests are read too, as `flow-studio test` reads them. No variable values are passed: only the defaults written in
 * the definition apply, so no bound value (a secret) can surface in a message.
 */
export function validateDefinition(workspace: Workspace, registry: ComponentRegistry, integration: string, edits: readonly DefinitionEdit[]): RunProblem[] {
  const dir = workspace.dirOf(integration);
  const { definitionFiles: files, testFiles } = workspace.summary(integration);
  const byFile = new Map<string, string>();
  const testEdits = new Map<string, string>();
  for (const edit of Array.isArray(edits) ? edits : []) {
    if (!edit || typeof edit.file !== 'string' || typeof edit.text !== 'string') throw new StudioError('each edit is {file, text}');
    if (testFiles.includes(edit.file)) {
      testEdits.set(edit.file, edit.text);
      continue;
    }
    if (!files.includes(edit.file)) throw new StudioError(`"${edit.file}" is not a definition file of "${integration}"; definitions are the .yaml files at its root`);
    byFile.set(edit.file, edit.text);
  }
  const onDisk = readDefinitions(files.filter((f) => !byFile.has(f)).map((f) => workspace.pathIn(integration, f))).map((t) => ({ file: t.file.slice(dir.length + 1), text: t.text }));
  // Load order is the sorted file order, as at run time, so duplicate names point the same way.
  const texts = [...onDisk, ...[...byFile].map(([file, text]) => ({ file, text }))].sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
  const tests = testFiles.map((file) => ({ file, text: testEdits.get(file) ?? readFileSync(workspace.pathIn(integration, file), 'utf8') }));
  return [...definitionProblems(texts, registry), ...testProblems(tests, flowNamesIn(texts))];
}

function definitionProblems(texts: Array<{ file: string; text: string }>, registry: ComponentRegistry): RunProblem[] {
  try {
    loadDefinition(texts, { registry, mode: 'validate' });
    return [];
  } catch (err) {
    if (err instanceof LoadError) return err.problems.map(problemOf);
    return [{ file: texts[0]?.file ?? '', line: 1, col: 1, path: '', message: `the definition could not be checked: ${errorMessage(err)}` }];
  }
}

/**
 * The flow tests beside the definitions, read as `flow-studio test` reads them (the same loader,
 * file:line:col), and each test's flow looked up among the definitions' flows.
 */
function testProblems(tests: Array<{ file: string; text: string }>, flows: string[]): RunProblem[] {
  const problems: RunProblem[] = [];
  for (const t of tests) {
    try {
      loadTestFile(t.file, t.text, { flows });
    } catch (err) {
      if (err instanceof LoadError) problems.push(...err.problems.map(problemOf));
      else problems.push({ file: t.file, line: 1, col: 1, path: '', message: `the test file could not be checked: ${errorMessage(err)}` });
    }
  }
  return problems;
}

/** The flows the definitions declare, read from their YAML alone: a definition with a problem still names its flows. */
function flowNamesIn(texts: Array<{ text: string }>): string[] {
  const names: string[] = [];
  for (const { text } of texts) {
    try {
      const doc = parse(text) as { flows?: unknown } | null;
      if (doc && typeof doc.flows === 'object' && doc.flows !== null) names.push(...Object.keys(doc.flows));
    } catch {
      // A file that does not parse has its own problem above.
    }
  }
  return names;
}

function problemOf(p: LoadProblem): RunProblem {
  return { file: p.location.file, line: p.location.line, col: p.location.col, path: p.path, message: p.message };
}
