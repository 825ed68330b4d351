import { describe, expect, it } from 'vitest';
import { deleteStep, insertStep, removeCase } from '../../../../shared/flow-edits/index.ts';
import { emptyRunStats } from '../run-stats.ts';
import { followCoverage, followStats } from './follow-graph-edit.ts';

const TEXT = `flows:
  f:
    steps:
      - log: {message: '"a"'}
      - switch:
          cases:
            - when: 'true'
              steps: [{log: {message: '"b"'}}]
            - when: 'false'
              steps: [{log: {message: '"c"'}}]
`;

describe('run counts and coverage through a graph edit', () => {
  it('stay on their steps when a step is inserted above them', () => {
    const stats = emptyRunStats();
    stats.steps['app flows.f.steps[1]'] = { completed: 3, failed: 1, dropped: 0 };
    stats.steps['other flows.f.steps[1]'] = { completed: 9, failed: 0, dropped: 0 };
    stats.lastRun['app f'] = { runId: 'r1', outcome: 'completed', at: 1, steps: { 'flows.f.steps[1]': 'completed' } };
    const { follow } = insertStep(TEXT, { chain: 'flows.f.steps', index: 0 }, { log: { message: '"new"' } });
    const next = followStats(stats, 'app', follow);
    expect(next.steps).toEqual({ 'app flows.f.steps[2]': { completed: 3, failed: 1, dropped: 0 }, 'other flows.f.steps[1]': { completed: 9, failed: 0, dropped: 0 } });
    expect(Object.keys(next.lastRun['app f'].steps)).toEqual(['flows.f.steps[2]']);
  });

  it('go with a deleted step, and case numbers follow a removed case', () => {
    const coverage = {
      steps: [
        { flow: 'f', path: 'flows.f.steps[0]', block: 'log', hits: 2 },
        { flow: 'f', path: 'flows.f.steps[1]', block: 'switch', hits: 2 },
      ],
      branches: [
        { flow: 'f', step: 'flows.f.steps[1]', label: 'case 0', hits: 1 },
        { flow: 'f', step: 'flows.f.steps[1]', label: 'case 1', hits: 1 },
      ],
    };
    expect(followCoverage(coverage, deleteStep(TEXT, 'flows.f.steps[0]').follow).steps).toEqual([{ flow: 'f', path: 'flows.f.steps[0]', block: 'switch', hits: 2 }]);
    expect(followCoverage(coverage, removeCase(TEXT, 'flows.f.steps[1]', 0).follow).branches).toEqual([{ flow: 'f', step: 'flows.f.steps[1]', label: 'case 0', hits: 1 }]);
  });
});
