import { describe, expect, it } from 'vitest';
import { chainShapesOf, flowOfStep, followStep, innermostFailedStep, isStepPath, stepAt, stepAtLine, stepFrames, stepLocations } from './step-paths.ts';

const shapes = chainShapesOf([
  {
    type: 'switch',
    settings: {
      cases: { type: 'list', items: { type: 'object', fields: { when: { type: 'cel' }, steps: { type: 'steps' } } } },
      default: { type: 'steps' },
    },
  },
  { type: 'lock', settings: { name: { type: 'cel' }, steps: { type: 'steps' } } },
  { type: 'set', settings: { body: { type: 'cel' } } },
]);

const text = `# orders
flows:
  orders:
    source: {type: http, path: /orders}
    steps:
      - set: {body: 'body'}
      - name: route
        switch:
          cases:
            - when: body.customer == "bob"
              steps:
                - set: {body: '"bob"'}
                - lock:
                    name: '"n"'
                    steps:
                      - set: {body: '"locked"'}
          default:
            - set: {body: '"other"'}
    onError:
      - set: {body: '"failed"'}
`;

describe('step paths and their place in the YAML', () => {
  const steps = stepLocations(text, shapes);

  it('lists every step with the path the runtime gives it, nested ones included, in document order', () => {
    expect(steps.map((s) => [s.path, s.line, s.block])).toEqual([
      ['flows.orders.steps[0]', 6, 'set'],
      ['flows.orders.steps[1]', 7, 'switch'],
      ['flows.orders.steps[1].switch.cases[0].steps[0]', 12, 'set'],
      ['flows.orders.steps[1].switch.cases[0].steps[1]', 13, 'lock'],
      ['flows.orders.steps[1].switch.cases[0].steps[1].lock.steps[0]', 16, 'set'],
      ['flows.orders.steps[1].switch.default[0]', 18, 'set'],
      ['flows.orders.onError[0]', 20, 'set'],
    ]);
    expect(stepAt(steps, 'flows.orders.steps[1]')).toMatchObject({ name: 'route', endLine: 18, depth: 1 });
  });

  it('maps a line to the innermost step holding it, and lines outside steps to none', () => {
    expect(stepAtLine(steps, 10)?.path).toBe('flows.orders.steps[1]');
    expect(stepAtLine(steps, 14)?.path).toBe('flows.orders.steps[1].switch.cases[0].steps[1]');
    expect(stepAtLine(steps, 16)?.path).toBe('flows.orders.steps[1].switch.cases[0].steps[1].lock.steps[0]');
    expect(stepAtLine(steps, 4)).toBeUndefined();
    expect(stepAtLine(steps, 1)).toBeUndefined();
  });

  it('gives the frames of a nested step, innermost first, skipping list items that are no steps', () => {
    expect(stepFrames('flows.f.steps[2].switch.cases[0].steps[1]')).toEqual(['flows.f.steps[2].switch.cases[0].steps[1]', 'flows.f.steps[2]']);
    expect(stepFrames('flows.f.steps[1].switch.cases[0].steps[1].lock.steps[0]')).toEqual([
      'flows.f.steps[1].switch.cases[0].steps[1].lock.steps[0]',
      'flows.f.steps[1].switch.cases[0].steps[1]',
      'flows.f.steps[1]',
    ]);
    expect(stepFrames('flows.f.steps[0].switch.default[1]')).toEqual(['flows.f.steps[0].switch.default[1]', 'flows.f.steps[0]']);
    expect(stepFrames('flows.f.onError[0]')).toEqual(['flows.f.onError[0]']);
    expect(flowOfStep('flows.orders.steps[3]')).toBe('orders');
    expect(isStepPath('flows.f.steps[2].switch.cases[0].steps')).toBe(false);
    expect(isStepPath('flows.f.steps[2].switch.default[0]')).toBe(true);
  });

  it('follows a step to its new line when lines above it move, and to its new path when a step is inserted before it', () => {
    const was = stepAt(steps, 'flows.orders.steps[1].switch.default[0]')!;
    const moved = stepLocations(text.replace('# orders\n', '# orders\n# more\n# lines\n'), shapes);
    expect(followStep(moved, was)).toMatchObject({ path: was.path, line: was.line + 2 });
    const inserted = stepLocations(text.replace("      - set: {body: 'body'}\n", "      - set: {body: 'body'}\n      - log: {message: '\"hi\"'}\n"), shapes);
    expect(followStep(inserted, stepAt(steps, 'flows.orders.steps[1]')!)?.path).toBe('flows.orders.steps[2]');
    const removed = stepLocations(text.replace("      - set: {body: 'body'}\n", ''), shapes);
    expect(followStep(removed, stepAt(steps, 'flows.orders.onError[0]')!)?.path).toBe('flows.orders.onError[0]');
    expect(followStep(removed, stepAt(steps, 'flows.orders.steps[0]')!)).toBeUndefined();
  });

  it('reads half-typed YAML without throwing', () => {
    expect(stepLocations('flows:\n  f:\n    steps:\n      - set: {body: [\n', shapes)).toEqual(expect.any(Array));
    expect(stepLocations('', shapes)).toEqual([]);
  });
});

describe('innermostFailedStep', () => {
  it('names the failed step inside the containers that failed with it, not the first container', () => {
    const steps = [
      { step: 'flows.orders.steps[0]', outcome: 'completed' },
      { step: 'flows.orders.steps[1]', outcome: 'failed' },
      { step: 'flows.orders.steps[1].switch.cases[0].steps[0]', outcome: 'completed' },
      { step: 'flows.orders.steps[1].switch.cases[0].steps[1]', outcome: 'failed' },
      { step: 'flows.orders.steps[1].switch.cases[0].steps[1].lock.steps[0]', outcome: 'failed' },
    ];
    expect(innermostFailedStep(steps)?.step).toBe('flows.orders.steps[1].switch.cases[0].steps[1].lock.steps[0]');
  });

  it('does not take steps[1] for a container of steps[10], and gives nothing for a run with no failed step', () => {
    const steps = [
      { step: 'flows.orders.steps[1]', outcome: 'failed' },
      { step: 'flows.orders.steps[10]', outcome: 'failed' },
    ];
    expect(innermostFailedStep(steps)?.step).toBe('flows.orders.steps[1]');
    expect(innermostFailedStep([{ step: 'flows.orders.steps[0]', outcome: 'completed' }])).toBeUndefined();
  });
});
