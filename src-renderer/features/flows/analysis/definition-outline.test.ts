import { describe, expect, it } from 'vitest';
import { definitionOutline } from './definition-outline.ts';
import { fixtureSpecs } from './reference-fixture.ts';
import { parseDefinition } from './yaml-nodes.ts';

const text = `connectors:
  web: {type: http, port: 0}
  api: {type: http-client, baseURL: "https://x"}
flows:
  route:
    source: {type: http, path: "/orders/{id}", methods: [GET, POST]}
    steps:
      - name: pick
        switch:
          cases:
            - when: vars.method == "GET"
              steps:
                - log: {message: '"get"'}
            - when: vars.method == "POST"
              steps:
                - flow-ref: {flow: save}
      - filter: {condition: body.ok}
    onError:
      - set: {body: '{"error": vars.error.message}'}
  save:
    steps: []
`;

describe('the outline of a definition', () => {
  const outline = definitionOutline(parseDefinition(text), text, fixtureSpecs);

  it('lists flows with their source and steps under the runtime’s setting paths', () => {
    expect(outline.flows.map((f) => f.name)).toEqual(['route', 'save']);
    const route = outline.flows[0];
    expect(route.source).toMatchObject({ type: 'http', detail: 'GET POST /orders/{id}' });
    expect(route.steps.map((s) => [s.path, s.block, s.name])).toEqual([
      ['flows.route.steps[0]', 'switch', 'pick'],
      ['flows.route.steps[1]', 'filter', undefined],
    ]);
    expect(route.steps[1].detail).toBe('condition: body.ok');
    expect(route.onError[0].path).toBe('flows.route.onError[0]');
    expect(outline.connectors.map((c) => `${c.name}:${c.type}`)).toEqual(['web:http', 'api:http-client']);
  });

  it('gives a switch one branch per case plus its otherwise-branch, with nested step paths', () => {
    const branches = outline.flows[0].steps[0].branches;
    expect(branches.map((b) => [b.kind, b.label, b.path])).toEqual([
      ['case', 'when vars.method == "GET"', 'flows.route.steps[0].switch.cases[0].steps'],
      ['case', 'when vars.method == "POST"', 'flows.route.steps[0].switch.cases[1].steps'],
      ['default', 'default', 'flows.route.steps[0].switch.default'],
    ]);
    expect(branches[1].steps[0]).toMatchObject({ path: 'flows.route.steps[0].switch.cases[1].steps[0]', block: 'flow-ref', flowRef: 'save' });
  });

  it('spans point at the YAML so a node can select its text', () => {
    const filter = outline.flows[0].steps[1];
    expect(text.slice(filter.span[0], filter.span[1])).toBe('filter: {condition: body.ok}');
    expect(text.slice(...outline.flows[1].keySpan)).toBe('save');
  });

  it('reads what it can of half-typed YAML', () => {
    const partialText = 'flows:\n  a:\n    steps:\n      - filter:\n      - \n  b:\n';
    const partial = definitionOutline(parseDefinition(partialText), partialText, fixtureSpecs);
    expect(partial.flows.map((f) => [f.name, f.steps.map((s) => s.block)])).toEqual([
      ['a', ['filter']],
      ['b', []],
    ]);
  });
});
