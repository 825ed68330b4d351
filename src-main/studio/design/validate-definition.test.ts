import { afterEach, describe, expect, it } from 'vitest';
import { loadRegistry } from '../../runtime/index.ts';
import { tempWorkspace } from './design-test-workspace.ts';
import { validateDefinition } from './validate-definition.ts';

const registry = await loadRegistry();

const connectors = `connectors:
  web: {type: http, port: 0}
`;

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function workspaceWith(files: Record<string, string>) {
  const t = tempWorkspace({ shop: files });
  cleanup = t.remove;
  return t.workspace;
}

describe('validating a definition for the editor', () => {
  it('finds nothing wrong with a definition that loads', () => {
    const ws = workspaceWith({ 'a.yaml': connectors + 'flows:\n  f:\n    source: {type: http, path: /x}\n    steps:\n      - log: {message: \'"hi"\'}\n' });
    expect(validateDefinition(ws, registry, 'shop', [])).toEqual([]);
  });

  it('checks the unsaved buffer instead of the file on disk, with line and column of each problem', () => {
    const ws = workspaceWith({ 'a.yaml': connectors + 'flows: {}\n' });
    const text = connectors + 'flows:\n  f:\n    steps:\n      - filter: {condition: "body.total > > 3"}\n      - log: {message: \'"x"\', colour: red}\n';
    const problems = validateDefinition(ws, registry, 'shop', [{ file: 'a.yaml', text }]);
    expect(problems).toEqual([
      expect.objectContaining({ file: 'a.yaml', line: 6, col: 43, path: 'flows.f.steps[0].filter.condition', message: expect.stringMatching(/^CEL: /) }),
      expect.objectContaining({ file: 'a.yaml', line: 7, col: 31, path: 'flows.f.steps[1].log.colour', message: expect.stringContaining('unknown setting "colour"') }),
    ]);
  });

  it('reports the loader’s own rules: unknown connectors, bad durations, unquoted dates', () => {
    const ws = workspaceWith({ 'a.yaml': 'flows: {}\n' });
    const text = `connectors:
  web: {type: http, port: 0, requestTimeout: 5}
  notes: {type: notes, token: t, notesVersion: 2025-09-03}
flows:
  one:
    source: {type: http, connector: nope, path: /x}
`;
    const messages = validateDefinition(ws, registry, 'shop', [{ file: 'a.yaml', text }]).map((p) => `${p.line}:${p.col} ${p.message}`);
    expect(messages).toEqual([
      '2:46 expected a duration such as 5s or 250ms, got 5',
      expect.stringMatching(/^3:48 YAML read this as a date .*quote it/),
      expect.stringMatching(/^6:37 no connector named "nope"/),
    ]);
  });

  it('reports two flows serving one route, as a start would', () => {
    const ws = workspaceWith({ 'a.yaml': 'flows: {}\n' });
    const text = connectors + 'flows:\n  two:\n    source: {type: http, path: /y}\n  three:\n    source: {type: http, path: /y}\n';
    const problems = validateDefinition(ws, registry, 'shop', [{ file: 'a.yaml', text }]);
    expect(problems).toEqual([expect.objectContaining({ line: 7, path: 'flows.three.source', message: expect.stringContaining('already served by flow "two"') })]);
  });

  it('sees the other definition files of the integration, so a connector declared elsewhere resolves', () => {
    const ws = workspaceWith({ 'a-connectors.yaml': connectors, 'b-flows.yaml': 'flows: {}\n' });
    const text = 'flows:\n  f:\n    source: {type: http, connector: web, path: /x}\n';
    expect(validateDefinition(ws, registry, 'shop', [{ file: 'b-flows.yaml', text }])).toEqual([]);
    const duplicate = validateDefinition(ws, registry, 'shop', [{ file: 'b-flows.yaml', text: connectors }]);
    expect(duplicate[0]).toMatchObject({ file: 'b-flows.yaml', line: 2, message: expect.stringContaining('declared twice; the other is at a-connectors.yaml:2:3') });
  });

  it('refuses an edit of a file that is not a definition of the integration', () => {
    const ws = workspaceWith({ 'a.yaml': 'flows: {}\n' });
    expect(() => validateDefinition(ws, registry, 'shop', [{ file: '../x.yaml', text: '' }])).toThrow('not a definition file of "shop"');
    expect(() => validateDefinition(ws, registry, 'nope', [])).toThrow('no integration "nope"');
  });

  it('reads the flow tests beside the definitions too, an unsaved one from its buffer, each problem at file:line:col', () => {
    const flows = connectors + 'flows:\n  price:\n    source: {type: http, path: /x}\n    steps:\n      - log: {message: \'"hi"\'}\n';
    const ws = workspaceWith({ 'a.yaml': flows, 'price.test.yaml': 'tests:\n  ok:\n    flow: price\n    expect: {outcome: completed}\n' });
    expect(validateDefinition(ws, registry, 'shop', [])).toEqual([]);
    const edited = 'tests:\n  ok:\n    flow: prices\n    expect: {outcom: completed}\n';
    expect(validateDefinition(ws, registry, 'shop', [{ file: 'price.test.yaml', text: edited }])).toEqual([
      { file: 'price.test.yaml', line: 4, col: 14, path: 'tests.ok.expect.outcom', message: 'unknown setting "outcom"; did you mean "outcome"?' },
      // The flow is looked up among the flows the definitions declare.
      { file: 'price.test.yaml', line: 3, col: 11, path: 'tests.ok.flow', message: 'no flow named "prices"; the flows beside it: price' },
    ]);
  });

  it('reports a broken flow test on disk beside problems of the definition', () => {
    const ws = workspaceWith({ 'a.yaml': connectors + 'flows:\n  f:\n    steps: 3\n', 'f.test.yaml': 'tests: [1]\n' });
    expect(validateDefinition(ws, registry, 'shop', []).map((p) => p.file)).toEqual(['a.yaml', 'f.test.yaml']);
  });
});
