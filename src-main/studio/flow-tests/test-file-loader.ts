import { readFileSync } from 'node:fs';
import { isMap, type Node } from 'yaml';
import {
  Chain,
  createCelEnvironment,
  LoadError,
  type LoadProblem,
  loadSettings,
  type Settings,
  type SettingsLoadContext,
  type SourceLocation,
  YamlFile,
} from '../../runtime/index.ts';
import { flowTestSpec, testFileSpec } from './test-file.def.ts';

export type FlowTestSettings = Settings<typeof flowTestSpec>;

/** One test of a test file, with where it is written (for failures that point at it). */
export interface FlowTest extends FlowTestSettings {
  name: string;
  file: string;
  location: SourceLocation;
}

/**
 * Reads a `<name>.test.yaml` against its declaration. Throws LoadError with every problem, each
 * with file:line:col and the setting path, exactly as a definition does.
 */
export function loadTestFile(file: string, text = readFileSync(file, 'utf8'), options: { flows?: readonly string[] } = {}): FlowTest[] {
  const yaml = new YamlFile(file, text);
  const problems: LoadProblem[] = [...yaml.syntaxProblems()];
  if (problems.length > 0) throw new LoadError(problems);
  const root = yaml.doc.contents as Node | null;
  const ctx: SettingsLoadContext = {
    file: yaml,
    problems,
    cel: createCelEnvironment(),
    envValue: () => undefined,
    isDeclared: () => false,
    connectorTypes: new Map(),
    buildSteps: () => new Chain([]),
  };
  if (!isMap(root)) {
    throw new LoadError([
      {
        location: yaml.at(root),
        path: '',
        message: 'a test file is a mapping with tests: (see docs/testing.md)',
      },
    ]);
  }
  const loaded = loadSettings(testFileSpec, root, 'tests', ctx) as Partial<Settings<typeof testFileSpec>>;
  // loadSettings names the root `tests`: a test's own path reads `tests.<name>`, not
  // `tests.tests.<name>`, and a stray key beside `tests:` is named by itself.
  for (const p of problems) p.path = p.path.replace(/^tests\.(?=.)/, '');
  const testsNode = root.get('tests', true) as Node | undefined;
  const tests: FlowTest[] = [];
  for (const [name, settings] of Object.entries(loaded.tests ?? {})) {
    const node = isMap(testsNode) ? (testsNode.get(name, true) as Node | undefined) : undefined;
    const location = yaml.at(isMap(testsNode) ? (testsNode.items.find((p) => String((p.key as { value?: unknown }).value) === name)?.key as Node) : node);
    const test: FlowTest = {
      ...(settings as FlowTestSettings),
      name,
      file,
      location,
    };
    for (const message of checkTest(test)) problems.push({ location, path: `tests.${name}`, message });
    // Given the integration's flows (the editor's check), a test of a flow that is not there is named where it says so.
    if (options.flows && typeof test.flow === 'string' && !options.flows.includes(test.flow)) {
      const flowNode = isMap(node) ? (node.get('flow', true) as Node | undefined) : undefined;
      const known = options.flows.length > 0 ? `; the flows beside it: ${options.flows.join(', ')}` : '; no definition beside it declares a flow';
      problems.push({ location: yaml.at(flowNode ?? node), path: `tests.${name}.flow`, message: `no flow named "${test.flow}"${known}` });
    }
    tests.push(test);
  }
  if (problems.length > 0) throw new LoadError(problems);
  return tests;
}

/** What the declaration alone cannot say: settings that exclude each other. */
function checkTest(t: FlowTest): string[] {
  const problems: string[] = [];
  const bodies = ['body', 'raw', 'rawBase64'].filter((k) => t.input?.[k as 'body'] !== undefined);
  if (bodies.length > 1) problems.push(`input has ${bodies.join(' and ')}; give one body`);
  if ((t.input?.raw !== undefined || t.input?.rawBase64 !== undefined) && !t.input.contentType) problems.push('input.raw needs input.contentType');
  if (t.expect?.error !== undefined && t.expect.outcome !== undefined && t.expect.outcome !== 'failed') problems.push('expect.error needs outcome failed');
  if (t.clock?.advance !== undefined && t.clock.advance <= 0) problems.push('clock.advance must be longer than 0');
  if (t.clock?.start !== undefined && Number.isNaN(Date.parse(t.clock.start)))
    problems.push(`clock.start "${t.clock.start}" is not an RFC 3339 time such as 2026-01-05T09:00:00Z`);
  return problems;
}
