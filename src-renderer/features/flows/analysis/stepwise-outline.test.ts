import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCase,
  addConnector,
  addFlow,
  deleteStep,
  duplicateStep,
  insertStep,
  moveStep,
  removeCase,
  setDefinitionValue,
  setStepSetting,
  unwrapStep,
  wrapSteps,
  type FlowEditResult,
} from '../../../../shared/flow-edits/index.ts';
import { chainRegions } from './chain-region.ts';
import { definitionOutline } from './definition-outline.ts';
import { flowRegions } from './flow-region.ts';
import type { OutlineFlow, OutlineStep } from './outline-types.ts';
import { fixtureSpecs } from './reference-fixture.ts';
import { shiftFlow, StepwiseOutline } from './stepwise-outline.ts';
import { parseDefinition } from './yaml-nodes.ts';

const EXAMPLES = Object.entries(import.meta.glob<string>('../../../../examples/*/*.yaml', { query: '?raw', import: 'default', eager: true })).filter(
  ([path]) => !path.endsWith('.test.yaml'),
);

/** The e2e's long flow: a comment above each step, inline maps. */
const bigFlow = (n: number): string =>
  `connectors:\n  web: {type: http, host: 127.0.0.1, port: 0}\nflows:\n  big:\n    source: {type: http, path: /big}\n    steps:\n${Array.from(
    { length: n },
    (_, i) => `      # step ${i}\n      - name: step-${i}\n        log: {message: '"at ${i}"'}\n`,
  ).join('')}`;

/** Layouts the indentation must be read right in: dashes under their key, a dash alone on its line, block scalars with `#` lines, comments everywhere, no final newline. */
const LAYOUTS: Record<string, string> = {
  'dashes under their key, error chain first, source last': `flows:
  a:
    description: odd order
    onError:
    - log: {message: '"failed"', level: error}
    # between chains
    steps:
    -
      name: dash alone
      set:
        body: |
          # a line of the body, not a comment
          {"a": 1}
    - switch:
        cases:
          - when: 'true'
            steps:
            - log: {message: x}
        default:
          - log: {message: y}
          # deeper trailing comment

  # a comment at the flow's indentation
    source:
      type: http
      path: /a
`,
  'blank lines, trailing spaces and comments after the last step, another flow after': `flows:
  first:
    steps:

      - log: {message: a}   

      - lock:
          name: '"l"'
          steps:
            - log: {message: b}
        # after the lock's steps

      # the end of the list
    # the end of the flow
  second:
    steps: []
`,
  'inline chains and no final newline': `flows:
  f:
    source: {type: http, path: /f}
    steps: [{log: {message: a}}]
    onError:
      - log: {message: b}`,
  'a nested list and an empty item': `flows:
  f:
    steps:
      - - not a step
      -
      - log: {message: c}
`,
};

const TEXTS: Array<[string, string]> = [...EXAMPLES, ['200 steps', bigFlow(200)], ...Object.entries(LAYOUTS)];

/** The flow as it was read before it was read step by step: its lines parsed whole (DefinitionAnalysis). */
function wholeFlow(text: string, name: string): OutlineFlow | undefined {
  const region = flowRegions(text)?.find((r) => r.name === name);
  if (!region) return undefined;
  const slice = `flows:\n${text.slice(region.start, region.end)}`;
  const flow = definitionOutline(parseDefinition(slice), slice, fixtureSpecs).flows[0];
  return flow && shiftFlow(flow, region.start - 'flows:\n'.length);
}

function stepwiseFlow(outline: StepwiseOutline, text: string, name: string): OutlineFlow | undefined {
  const region = flowRegions(text)?.find((r) => r.name === name);
  return region ? outline.flow(text, region) : undefined;
}

const flowNames = (text: string): string[] => definitionOutline(parseDefinition(text), text, fixtureSpecs).flows.map((f) => f.name);

function everyStep(steps: readonly OutlineStep[]): OutlineStep[] {
  return steps.flatMap((s) => [s, ...s.branches.flatMap((b) => everyStep(b.steps))]);
}

/** Every graph edit, on steps at both ends of the flow's chains and inside its switches and locks. */
function graphEdits(text: string, flow: OutlineFlow): Array<[string, () => FlowEditResult]> {
  const steps = `flows.${flow.name}.steps`;
  const n = flow.steps.length;
  const edits: Array<[string, () => FlowEditResult]> = [
    ['insert first', () => insertStep(text, { chain: steps, index: 0 }, { log: { message: '"new"' } })],
    ['insert last', () => insertStep(text, { chain: steps, index: n }, { log: { message: '"new"' } })],
    ['insert into the error chain', () => insertStep(text, { chain: `flows.${flow.name}.onError`, index: 0 }, { log: { message: '"failed"' } })],
    ['add a connector', () => addConnector(text, 'added', { type: 'http', port: 0 })],
    ['add a flow', () => addFlow(text, 'added-flow', { type: 'http', path: '/added' })],
    ['set a flow setting', () => setDefinitionValue(text, ['flows', flow.name, 'description'], 'edited')],
  ];
  if (flow.source) edits.push(['set a source setting', () => setDefinitionValue(text, ['flows', flow.name, 'source', 'type'], flow.source!.type)]);
  if (n > 0) {
    edits.push(
      ['duplicate the first', () => duplicateStep(text, `${steps}[0]`)],
      ['delete the first', () => deleteStep(text, `${steps}[0]`)],
      ['delete the last', () => deleteStep(text, `${steps}[${n - 1}]`)],
      ['rename the first', () => setStepSetting(text, `${steps}[0]`, ['name'], 'renamed')],
      ['wrap the first in a switch', () => wrapSteps(text, [`${steps}[0]`], { switch: { when: 'true' } })],
      ['wrap the first in a lock', () => wrapSteps(text, [`${steps}[0]`], { lock: { name: '"l"' } })],
    );
  }
  if (n > 1) {
    edits.push(
      ['move the last first', () => moveStep(text, `${steps}[${n - 1}]`, { chain: steps, index: 0 })],
      ['move the first last', () => moveStep(text, `${steps}[0]`, { chain: steps, index: n })],
      ['wrap two in a lock', () => wrapSteps(text, [`${steps}[0]`, `${steps}[1]`], { lock: { name: '"l"' } })],
    );
  }
  for (const s of everyStep([...flow.steps, ...flow.onError])) {
    if (s.branches.length > 0) {
      edits.push(['unwrap', () => unwrapStep(text, s.path)]);
      const branch = s.branches[0];
      edits.push(['insert into a branch', () => insertStep(text, { chain: branch.path, index: branch.steps.length }, { log: { message: '"in"' } })]);
      if (branch.steps.length > 0 && s.path !== `${steps}[0]` && n > 0) edits.push(['move a step out of a branch', () => moveStep(text, branch.steps[0].path, { chain: steps, index: 0 })]);
    }
    if (s.block === 'switch') {
      edits.push(['add a case', () => addCase(text, s.path, 'false')]);
      if (s.branches.filter((b) => b.kind === 'case').length > 1) edits.push(['remove a case', () => removeCase(text, s.path, 0)]);
    }
  }
  return edits;
}

describe('a flow read step by step', () => {
  it('finds the chains of a flow and the lines of each item by indentation', () => {
    const text = LAYOUTS['dashes under their key, error chain first, source last'];
    const chains = chainRegions(text, flowRegions(text)![0])!;
    expect(chains.map((c) => [c.key, c.items.length])).toEqual([
      ['onError', 1],
      ['steps', 2],
    ]);
    expect(text.slice(chains[1].items[0].start, chains[1].items[0].end)).toMatch(/^-\n {6}name: dash alone\n[^]* {4}$/);
    // The last item reaches to the key after the list, over the comments after it.
    const last = chains[1].items[1];
    expect(text.slice(last.start, last.end)).toMatch(/^- switch:[^]*# deeper trailing comment\n\n {2}# a comment at the flow's indentation\n {4}$/);
    const inline = LAYOUTS['inline chains and no final newline'];
    expect(chainRegions(inline, flowRegions(inline)![0])!.map((c) => c.key)).toEqual(['onError']);
    // Not plain enough to tell: an item line off its list's dashes, a chain written twice.
    const odd = (t: string) => chainRegions(t, flowRegions(t)![0]);
    expect(odd('flows:\n  f:\n    steps:\n      - log: {}\n     x: 1\n')).toBeUndefined();
    expect(odd('flows:\n  f:\n    steps:\n      - log: {}\n    steps:\n      - log: {}\n')).toBeUndefined();
    expect(odd('flows:\n  f:\n    "steps": []\n    steps:\n      - log: {}\n')).toBeUndefined();
  });

  it.each(TEXTS)('%s: reads every flow as its lines read whole do', (_name, text) => {
    for (const name of flowNames(text)) {
      const outline = new StepwiseOutline(fixtureSpecs);
      const read = stepwiseFlow(outline, text, name);
      // A flow without a block list of steps or an error chain is read whole by the caller.
      const region = flowRegions(text)!.find((r) => r.name === name)!;
      if (chainRegions(text, region)!.length === 0) expect(read).toBeUndefined();
      else expect(read).toEqual(wholeFlow(text, name));
    }
  });

  it.each(TEXTS)('%s: after each graph edit, reads what the flow’s lines read whole do, from the reading before the edit', (_name, text) => {
    let edited = 0;
    for (const name of flowNames(text)) {
      const flow = wholeFlow(text, name)!;
      for (const [what, edit] of graphEdits(text, flow)) {
        let after: string;
        try {
          after = edit().text;
        } catch {
          continue; // an edit this flow does not allow (a flow-style list), refused as the graph refuses it
        }
        const outline = new StepwiseOutline(fixtureSpecs);
        stepwiseFlow(outline, text, name);
        const read = stepwiseFlow(outline, after, name);
        if (!read) continue;
        edited++;
        expect(read, `${name}: ${what}`).toEqual(wholeFlow(after, name));
      }
    }
    if (!/inline/.test(_name)) expect(edited).toBeGreaterThan(0);
  });

  it('on a 200-step flow, a moved or inserted step is read again, not the other steps', () => {
    const text = bigFlow(200);
    const outline = new StepwiseOutline(fixtureSpecs);
    stepwiseFlow(outline, text, 'big');
    expect(outline.stepsRead).toBe(200);
    const moved = moveStep(text, 'flows.big.steps[150]', { chain: 'flows.big.steps', index: 0 }).text;
    expect(stepwiseFlow(outline, moved, 'big')!.steps[0]).toMatchObject({ path: 'flows.big.steps[0]', name: 'step-150' });
    // The moved step, and the one whose lines now end above another step's comment.
    expect(outline.stepsRead).toBeLessThanOrEqual(3);
    const inserted = insertStep(moved, { chain: 'flows.big.steps', index: 100 }, { log: { message: '"new"' } }).text;
    expect(stepwiseFlow(outline, inserted, 'big')).toEqual(wholeFlow(inserted, 'big'));
    expect(outline.stepsRead).toBeLessThanOrEqual(2);
  });

  it('agrees with the flow’s lines read whole through typing, half-typed YAML included (or leaves it to them)', () => {
    const pieces = ['', 'x', ' ', '\n', '- ', '#', ':', '  ', '{', '"', "'", '|', '&a ', '*a', '\n      - log: {message: a}\n', '\n    # c\n', '\n#c\n'];
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...pieces), fc.nat({ max: 6 })), { minLength: 1, maxLength: 8 }), (which, keys) => {
        let text = EXAMPLES[which % EXAMPLES.length][1];
        const name = flowNames(text)[0];
        const outline = new StepwiseOutline(fixtureSpecs);
        stepwiseFlow(outline, text, name);
        for (const [at, typed, deleted] of keys) {
          const p = at % text.length;
          text = text.slice(0, p) + typed + text.slice(p + deleted);
          const read = stepwiseFlow(outline, text, name);
          if (read) expect(read).toEqual(wholeFlow(text, name));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the flow’s lines read whole through any sequence of graph edits', () => {
    const start = bigFlow(6).replace('log: {message: \'"at 2"\'}', 'switch:\n          cases:\n            - when: "true"\n              steps:\n                - log: {message: x}');
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (picks) => {
        const outline = new StepwiseOutline(fixtureSpecs);
        let text = start;
        stepwiseFlow(outline, text, 'big');
        for (const pick of picks) {
          const edits = graphEdits(text, wholeFlow(text, 'big')!).filter(([what]) => what !== 'add a flow');
          try {
            text = edits[pick % edits.length][1]().text;
          } catch {
            continue;
          }
          const read = stepwiseFlow(outline, text, 'big');
          if (read) expect(read).toEqual(wholeFlow(text, 'big'));
        }
      }),
      { numRuns: 60 },
    );
  });
});
