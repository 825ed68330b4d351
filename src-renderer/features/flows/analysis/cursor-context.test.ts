import { describe, expect, it } from 'vitest';
import { cursorContext } from './cursor-context.ts';
import { fixtureSpecs } from './reference-fixture.ts';
import { parseDefinition } from './yaml-nodes.ts';

/** The context at the `|` in the text. */
function at(marked: string) {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  return cursorContext(parseDefinition(text), text, fixtureSpecs, offset);
}

describe('the context at the cursor', () => {
  it('knows it is inside a CEL setting of a step, with the expression text before the cursor', () => {
    const ctx = at('flows:\n  f:\n    steps:\n      - filter: {condition: body.total > vars.|}\n');
    expect(ctx).toMatchObject({ path: 'flows.f.steps[0].filter.condition', flow: 'f', stepPath: 'flows.f.steps[0]', onKey: false });
    expect(ctx.setting?.type).toBe('cel');
    expect(ctx.cel).toMatchObject({ expression: 'body.total > vars.', prefix: 'body.total > vars.' });
  });

  it('unescapes quoted expressions and handles an empty value', () => {
    expect(at("flows:\n  f:\n    steps:\n      - log: {message: '\"it''s \" + vars.|'}\n").cel?.prefix).toBe(`"it's " + vars.`);
    expect(at('flows:\n  f:\n    steps:\n      - filter:\n          condition: |\n').cel).toMatchObject({ expression: '', prefix: '' });
  });

  it('stays in a value after the blanks typed at its end, on its line', () => {
    const spaced = at('flows:\n  f:\n    steps:\n      - filter:\n          condition: body.total > |\n      - log: {message: x}\n');
    expect(spaced).toMatchObject({ path: 'flows.f.steps[0].filter.condition', stepPath: 'flows.f.steps[0]' });
    expect(spaced.cel?.prefix).toBe('body.total > ');
    expect(at('flows:\n  f:\n    steps:\n      - filter: {condition: a && |}\n').cel?.prefix).toBe('a && ');
    expect(at('flows:\n  f:\n    description: Flow number 4 |\n    steps: []\n')).toMatchObject({ path: 'flows.f.description', setting: { type: 'string' }, onKey: false });
    // The next line is not the value's: a cursor there is in the mapping around it.
    expect(at('flows:\n  f:\n    description: Flow\n    |\n    steps: []\n').path).not.toBe('flows.f.description');
  });

  it('follows nested settings: switch cases, filter reject, set vars', () => {
    const when = at('flows:\n  f:\n    steps:\n      - switch:\n          cases:\n            - when: vars.a|\n              steps: []\n');
    expect(when).toMatchObject({ path: 'flows.f.steps[0].switch.cases[0].when', stepPath: 'flows.f.steps[0]' });
    expect(when.cel?.prefix).toBe('vars.a');
    const nested = at('flows:\n  f:\n    steps:\n      - switch:\n          cases:\n            - when: "true"\n              steps:\n                - set: {vars: {x: body.|}}\n');
    expect(nested).toMatchObject({ path: 'flows.f.steps[0].switch.cases[0].steps[0].set.vars.x', stepPath: 'flows.f.steps[0].switch.cases[0].steps[0]' });
    expect(nested.chain).toMatchObject({ path: 'flows.f.steps[0].switch.cases[0].steps', indent: 16 });
    expect(at('flows:\n  f:\n    steps:\n      - filter:\n          condition: x\n          reject: {body: vars.|}\n').path).toBe('flows.f.steps[0].filter.reject.body');
  });

  it('tells a key from a value, and knows sources and connectors', () => {
    expect(at('flows:\n  f:\n    steps:\n      - filter: {condi|tion: x}\n')).toMatchObject({ path: 'flows.f.steps[0].filter.condition', onKey: true });
    expect(at('flows:\n  f:\n    source:\n      type: http\n      path: /a/{id|}\n').setting?.description).toBe('Route pattern.');
    expect(at('connectors:\n  api: {type: http-client, baseURL: h|}\n')).toMatchObject({ path: 'connectors.api.baseURL', setting: { required: true } });
    expect(at('flows:\n  f:\n    steps:\n      - log: {message: x}\n    onError:\n      - log: {message: |}\n').stepPath).toBe('flows.f.onError[0]');
  });
});
