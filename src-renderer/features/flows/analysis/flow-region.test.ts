import { describe, expect, it } from 'vitest';
import { flowRegionAt, flowRegions } from './flow-region.ts';

const text = `connectors:
  web: {type: http}
flows:
  first:
    steps:
      - log: {message: a}

  # a comment between flows
  second:
    steps:
      - log: {message: b}
env: {}
`;

describe('finding the flow under the cursor by indentation', () => {
  it('lists every flow with where its name is', () => {
    expect(flowRegions(text)!.map((r) => [r.name, text.slice(r.keyStart, r.keyStart + r.name.length)])).toEqual([
      ['first', 'first'],
      ['second', 'second'],
    ]);
  });

  it('returns the lines of the flow holding the offset', () => {
    const r = flowRegionAt(text, text.indexOf('message: b'))!;
    expect(r.name).toBe('second');
    expect(text.slice(r.start, r.end)).toBe('  second:\n    steps:\n      - log: {message: b}\n');
    const first = flowRegionAt(text, text.indexOf('message: a'))!;
    expect(text.slice(first.start, first.end)).toBe('  first:\n    steps:\n      - log: {message: a}\n\n  # a comment between flows\n');
  });

  it('gives up where indentation cannot tell: outside flows, flow-style, tabs', () => {
    expect(flowRegionAt(text, text.indexOf('web'))).toBeUndefined();
    expect(flowRegions('flows:\n  a:\n    steps: []\nflows:\n  b: {}\n')).toBeUndefined();
    expect(flowRegionAt('flows: {a: {steps: []}}\n', 10)).toBeUndefined();
    expect(flowRegionAt('flows:\n\ta:\n', 9)).toBeUndefined();
  });
});
