import { describe, expect, it } from 'vitest';
import { snippetInsertion, type SnippetInsertion } from './block-snippet.ts';
import { fixtureReference, fixtureSpecs } from './reference-fixture.ts';
import { parseDefinition } from './yaml-nodes.ts';

const component = (type: string, kind = 'block') => fixtureReference.components.find((c) => c.type === type && c.kind === kind)!;

function apply(text: string, i: SnippetInsertion): string {
  return text.slice(0, i.offset) + i.text + text.slice(i.replaceTo ?? i.offset);
}

/** Inserts the component at the `|` and returns the new text. */
function insert(marked: string, type: string, kind = 'block'): string {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  const r = snippetInsertion(parseDefinition(text), text, fixtureSpecs, offset, component(type, kind));
  if (!r.ok) throw new Error(r.reason);
  return apply(text, r.insertion);
}

const base = `connectors:
  api: {type: http-client, baseURL: "https://x"}
flows:
  f:
    steps:
      - log: {message: '"a"'}
      - log: {message: '"b"'}
  g:
    steps: []
`;

describe('inserting from the palette', () => {
  it('adds a block as the next step after the one under the cursor, naming the declared connector', () => {
    const out = insert(base.replace(`'"a"'`, `'"a|"'`), 'rest');
    expect(out).toContain(`      - log: {message: '"a"'}\n      - rest:\n          connector: api\n          path: /orders\n      - log: {message: '"b"'}`);
  });

  it('fills required settings with values that load: examples, other flows, nested cases', () => {
    expect(insert(base.replace(`'"b"'`, `'"b|"'`), 'flow-ref')).toContain('      - flow-ref:\n          flow: g\n');
    expect(insert(base.replace(`'"b"'`, `'"b|"'`), 'switch')).toContain('      - switch:\n          cases:\n            - when: vars.method == "GET"\n              steps: []\n');
  });

  it('turns an empty `steps: []` into a list holding the block', () => {
    expect(insert(base.replace('  g:\n    steps: []', '  g:\n    steps: [|]'), 'log')).toContain(`  g:\n    steps:\n      - log:\n          message: '"order " + vars.id + " received"'\n`);
  });

  it('puts a block on a blank line where the cursor is, at that indentation', () => {
    const text = 'flows:\n  f:\n    steps:\n      - log: {message: x}\n      |\n';
    expect(insert(text, 'log')).toBe('flows:\n  f:\n    steps:\n      - log: {message: x}\n      - log:\n          message: \'"order " + vars.id + " received"\'\n');
  });

  it('gives the flow under the cursor a source, and refuses a second one', () => {
    expect(insert(base.replace('  g:\n', '  g|:\n'), 'http', 'source')).toContain('  g:\n    source:\n      type: http\n      path: /orders/{id}\n      rawBodyVar: rawBody\n    steps: []');
    const withSource = 'flows:\n  f:\n    source: {type: queue, subject: a}\n    steps: []|\n';
    const offset = withSource.indexOf('|');
    const text = withSource.replace('|', '');
    expect(snippetInsertion(parseDefinition(text), text, fixtureSpecs, offset, component('http', 'source'))).toEqual({ ok: false, reason: 'flow "f" already has a source; a flow has one' });
  });

  it('adds a connector under connectors: with a fresh name, creating the section when missing', () => {
    expect(insert(base.replace('flows:\n  f:', 'flows:\n  f|:'), 'http-client', 'connector')).toContain('  api: {type: http-client, baseURL: "https://x"}\n  http-client:\n    type: http-client\n    baseURL: https://api.example.com/v1\nflows:');
    expect(insert('flows: {}|\n', 'http', 'connector')).toBe('connectors:\n  http:\n    type: http\nflows: {}\n');
  });
});
