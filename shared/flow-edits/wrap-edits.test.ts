import { describe, expect, it } from 'vitest';
import { expectEdit } from './tests/edit-checks.ts';
import { addCase, removeCase, unwrapStep, wrapSteps } from './index.ts';
import { ORDERS } from './tests/orders-fixture.ts';
import { changed } from './tests/text-changes.ts';

const FIRST_TWO = `      # reject empty orders first
      - name: require items
        filter:
          condition: has(body.items)
          reject: {status: 400, body: '"no items"'}

      - set:
          vars: {count: 'size(body.items)'}   # how many
`;

describe('wrapping steps', () => {
  it('moves neighbouring steps into a new lock’s body, comments and blank lines included', () => {
    const r = wrapSteps(ORDERS, ['flows.orders.steps[1]', 'flows.orders.steps[0]'], { lock: { name: '"orders"' } });
    const inside = FIRST_TWO.replace(/^(?=.)/gm, '      ');
    expectEdit(ORDERS, r, changed(ORDERS, [FIRST_TWO, `      - lock:\n          name: '"orders"'\n          steps:\n${inside}`]));
    expect(r.select).toBe('flows.orders.steps[0]');
    expect(r.follow('flows.orders.steps[1]')).toBe('flows.orders.steps[0].lock.steps[1]');
    expect(r.follow('flows.orders.steps[2]')).toBe('flows.orders.steps[1]');
  });

  it('moves a step into the first case of a new switch', () => {
    const set = "      - set:\n          vars: {count: 'size(body.items)'}   # how many\n";
    const r = wrapSteps(ORDERS, ['flows.orders.steps[1]'], { switch: { when: 'has(body.rush)' } });
    expectEdit(
      ORDERS,
      r,
      changed(ORDERS, [set, `      - switch:\n          cases:\n            - when: has(body.rush)\n              steps:\n${set.replace(/^(?=.)/gm, '          ')}`]),
    );
    expect(r.follow('flows.orders.steps[1]')).toBe('flows.orders.steps[1].switch.cases[0].steps[0]');
  });

  it('refuses steps that do not follow one another', () => {
    expect(() => wrapSteps(ORDERS, ['flows.orders.steps[0]', 'flows.orders.steps[2]'], { lock: { name: '"x"' } })).toThrow(/follow one another/);
  });
});

describe('unwrapping a step', () => {
  it('puts a switch’s first case in its place', () => {
    const r = unwrapStep(ORDERS, 'flows.orders.steps[2]');
    expectEdit(
      ORDERS,
      r,
      changed(ORDERS, [
        "      - switch:\n          cases:\n            - when: vars.count > 10\n              steps:\n                - log: {message: '\"big order\"'}\n          default:\n            - log: {message: \"'small order'\"}\n",
        "      - log: {message: '\"big order\"'}\n",
      ]),
    );
    expect(r.follow('flows.orders.steps[2].switch.cases[0].steps[0]')).toBe('flows.orders.steps[2]');
    expect(r.follow('flows.orders.steps[2].switch.default[0]')).toBeUndefined();
  });

  it('gives back what a wrap took, byte for byte', () => {
    const wrapped = wrapSteps(ORDERS, ['flows.orders.steps[0]', 'flows.orders.steps[1]'], { lock: { name: '"orders"' } });
    expect(unwrapStep(wrapped.text, 'flows.orders.steps[0]').text).toBe(ORDERS);
  });
});

describe('switch cases', () => {
  it('adds a case with no steps after the others', () => {
    const r = addCase(ORDERS, 'flows.orders.steps[2]', 'vars.count == 0');
    const last = "                - log: {message: '\"big order\"'}\n";
    expectEdit(ORDERS, r, changed(ORDERS, [last, `${last}            - when: vars.count == 0\n              steps: []\n`]));
    expect(r.select).toBe('flows.orders.steps[2].switch.cases[1]');
  });

  it('removes a case with its steps, but never the last one', () => {
    const two = addCase(ORDERS, 'flows.orders.steps[2]', 'vars.count == 0').text;
    const r = removeCase(two, 'flows.orders.steps[2]', 0);
    expectEdit(
      two,
      r,
      changed(two, ["            - when: vars.count > 10\n              steps:\n                - log: {message: '\"big order\"'}\n", '']),
    );
    expect(r.follow('flows.orders.steps[2].switch.cases[1].steps')).toBe('flows.orders.steps[2].switch.cases[0].steps');
    expect(() => removeCase(ORDERS, 'flows.orders.steps[2]', 0)).toThrow(/at least one case/);
  });
});
