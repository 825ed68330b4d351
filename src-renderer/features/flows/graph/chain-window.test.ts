import { describe, expect, it } from 'vitest';
import type { OutlineStep } from '../analysis/outline-types.ts';
import { chainOffsets, chainWindow, estimatedHeight } from './chain-window.ts';

const step = (path: string, branches: OutlineStep[][] = []): OutlineStep => ({
  path,
  block: branches.length ? 'switch' : 'log',
  span: [0, 0],
  branches: branches.map((steps, i) => ({ kind: 'case', label: `case ${i}`, path: `${path}.switch.cases[${i}].steps`, steps })),
});

describe('the window of a long chain the graph draws', () => {
  it('holds the steps the view shows, even in part, and none past it', () => {
    const offsets = chainOffsets([50, 50, 100, 50, 50]);
    expect(offsets).toEqual([0, 50, 100, 200, 250, 300]);
    expect(chainWindow(offsets, 0, 60)).toEqual({ first: 0, last: 2 });
    expect(chainWindow(offsets, 50, 100)).toEqual({ first: 1, last: 2 });
    expect(chainWindow(offsets, 120, 210)).toEqual({ first: 2, last: 4 });
    expect(chainWindow(offsets, -500, 10_000)).toEqual({ first: 0, last: 5 });
    expect(chainWindow(offsets, 400, 900)).toEqual({ first: 5, last: 5 });
    expect(chainWindow(chainOffsets([]), 0, 100)).toEqual({ first: 0, last: 0 });
  });

  it('guesses a step with branches as tall as its longest branch below its node', () => {
    const plain = estimatedHeight(step('s[0]'));
    const withBranches = estimatedHeight(step('s[1]', [[step('a'), step('b')], [step('c')]]));
    expect(withBranches).toBeGreaterThan(plain * 3);
    expect(withBranches).toBeLessThan(estimatedHeight(step('s[2]', [[step('a'), step('b'), step('c')]])));
  });
});
