import { describe, expect, it } from 'vitest';
import type { DefinitionOutline, OutlineStep } from '../analysis/outline-types.ts';
import { sameStep, spanAt } from './graph-paths.ts';

const log = (path: string, span: [number, number], detail = 'message: "hi"'): OutlineStep => ({ path, block: 'log', detail, span, branches: [] });

describe('a node drawn again after an edit', () => {
  it('is the same node when only its place in the text moved, not when what it shows changed', () => {
    expect(sameStep(log('flows.f.steps[3]', [10, 20]), log('flows.f.steps[3]', [40, 50]))).toBe(true);
    expect(sameStep(log('flows.f.steps[3]', [10, 20]), log('flows.f.steps[4]', [10, 20]))).toBe(false);
    expect(sameStep(log('flows.f.steps[3]', [10, 20]), log('flows.f.steps[3]', [10, 20], 'message: "bye"'))).toBe(false);
    const lock = (inner: OutlineStep): OutlineStep => ({ path: 'flows.f.steps[0]', block: 'lock', span: [0, 9], branches: [{ kind: 'steps', label: 'steps', path: 'flows.f.steps[0].lock.steps', steps: [inner] }] });
    expect(sameStep(lock(log('flows.f.steps[0].lock.steps[0]', [1, 2])), lock(log('flows.f.steps[0].lock.steps[0]', [5, 6])))).toBe(true);
    expect(sameStep(lock(log('flows.f.steps[0].lock.steps[0]', [1, 2])), lock(log('flows.f.steps[0].lock.steps[0]', [1, 2], 'x')))).toBe(false);
  });

  it('finds where a clicked node is in the text as it is now', () => {
    const outline: DefinitionOutline = {
      connectors: [],
      flows: [
        {
          name: 'f',
          span: [0, 100],
          keySpan: [2, 3],
          source: { type: 'http', detail: '/x', span: [5, 9] },
          steps: [{ path: 'flows.f.steps[0]', block: 'switch', span: [10, 60], branches: [{ kind: 'case', label: 'when true', path: 'flows.f.steps[0].switch.cases[0].steps', span: [20, 50], steps: [log('flows.f.steps[0].switch.cases[0].steps[0]', [30, 50])] }] }],
          onError: [log('flows.f.onError[0]', [70, 90])],
        },
      ],
    };
    expect(spanAt(outline, 'flows.f')).toEqual([2, 3]);
    expect(spanAt(outline, 'flows.f.source')).toEqual([5, 9]);
    expect(spanAt(outline, 'flows.f.steps[0].switch.cases[0]')).toEqual([20, 50]);
    expect(spanAt(outline, 'flows.f.steps[0].switch.cases[0].steps[0]')).toEqual([30, 50]);
    expect(spanAt(outline, 'flows.f.onError[0]')).toEqual([70, 90]);
    expect(spanAt(outline, 'flows.f.onError')).toBeUndefined();
    expect(spanAt(outline, 'flows.g.steps[0]')).toBeUndefined();
  });
});
