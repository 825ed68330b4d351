import { describe, expect, it } from 'vitest';
import { cursorContext } from '../analysis/cursor-context.ts';
import { fixtureSpecs } from '../analysis/reference-fixture.ts';
import { parseDefinition } from '../analysis/yaml-nodes.ts';
import { schemaMayComplete } from './schema-completion-gate.ts';

/** The gate's answer at the `|` in the text, from the context the analysis worker computes. */
function asks(marked: string): boolean {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return schemaMayComplete(cursorContext(parseDefinition(text), text, fixtureSpecs, offset), text.slice(lineStart, offset));
}

describe('whether the schema completion is asked', () => {
  it('is not asked inside a CEL expression, even after a space, where our own completion answers', () => {
    expect(asks('flows:\n  f:\n    steps:\n      - filter:\n          condition: body.total > |\n')).toBe(false);
    expect(asks('flows:\n  f:\n    steps:\n      - filter: {condition: has(body.a) && body.|}\n')).toBe(false);
  });

  it('is not asked inside free text, which the schema cannot complete', () => {
    expect(asks('flows:\n  f:\n    description: Orders from the shop |\n')).toBe(false);
    expect(asks('flows:\n  f:\n    source: {type: http, path: /orders/|}\n')).toBe(false);
  });

  it('is asked where the schema has something to offer', () => {
    // A key being typed, an empty value (its example or default), an enum, a connector name.
    expect(asks('flows:\n  f:\n    steps:\n      - filter:\n          condi|\n')).toBe(true);
    expect(asks('flows:\n  f:\n    source: {type: http, path: |}\n')).toBe(true);
    expect(asks('flows:\n  f:\n    source: {type: http, connector: w|}\n')).toBe(true);
    expect(asks('flows:\n  f:\n    steps:\n      - log: {message: x, level: w|}\n')).toBe(true);
    expect(asks('flows:\n  f:\n    steps:\n      - |\n')).toBe(true);
    expect(asks('conn|\n')).toBe(true);
    // Where the analysis knows nothing (a key of its own, a file it does not read), it passes.
    expect(asks('flows:\n  f:\n    steps:\n      - filter:\n          condition: x\n          extra: a b |\n')).toBe(true);
  });
});
