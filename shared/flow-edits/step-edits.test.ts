import { describe, expect, it } from 'vitest';
import { expectEdit } from './tests/edit-checks.ts';
import { deleteStep, duplicateStep, FlowEditError, insertStep, moveStep, parsedDefinition } from './index.ts';
import { ORDERS } from './tests/orders-fixture.ts';
import { changed } from './tests/text-changes.ts';

const LOG_HI = { log: { message: '"hi"' } };
const HI = `      - log:
          message: '"hi"'
`;

describe('inserting a step', () => {
  it('goes between two steps, set apart by the same blank line as its neighbours', () => {
    const r = insertStep(ORDERS, { chain: 'flows.orders.steps', index: 1 }, LOG_HI);
    expectEdit(ORDERS, r, changed(ORDERS, ["\n      - set:\n", `\n${HI}\n      - set:\n`]));
    expect(r.select).toBe('flows.orders.steps[1]');
    expect(r.edits).toHaveLength(1);
    expect(r.follow('flows.orders.steps[1]')).toBe('flows.orders.steps[2]');
    expect(r.follow('flows.orders.steps[2].switch.default[0]')).toBe('flows.orders.steps[3].switch.default[0]');
    expect(r.follow('flows.orders.steps[0]')).toBe('flows.orders.steps[0]');
  });

  it('goes after the last step', () => {
    const r = insertStep(ORDERS, { chain: 'flows.orders.steps', index: 4 }, LOG_HI);
    expectEdit(ORDERS, r, `${ORDERS}\n${HI}`);
  });

  it('goes first into a switch case, at the case’s indentation', () => {
    const r = insertStep(ORDERS, { chain: 'flows.orders.steps[2].switch.cases[0].steps', index: 0 }, LOG_HI);
    expectEdit(
      ORDERS,
      r,
      changed(ORDERS, [
        "              steps:\n                - log: {message: '\"big order\"'}",
        "              steps:\n                - log:\n                    message: '\"hi\"'\n                - log: {message: '\"big order\"'}",
      ]),
    );
  });

  it('creates the error chain of a flow that has none', () => {
    const r = insertStep(ORDERS, { chain: 'flows.orders.onError', index: 0 }, LOG_HI);
    expectEdit(ORDERS, r, `${ORDERS}    onError:\n${HI}`);
    expect(r.select).toBe('flows.orders.onError[0]');
  });

  it('turns an empty list into a block list, its comment staying on the key’s line', () => {
    const text = 'flows:\n  f:\n    steps: []   # nothing yet\n    onError: [] # TODO\n';
    const r = insertStep(text, { chain: 'flows.f.steps', index: 0 }, LOG_HI);
    expectEdit(text, r, "flows:\n  f:\n    steps:   # nothing yet\n      - log:\n          message: '\"hi\"'\n    onError: [] # TODO\n");
    const onError = insertStep(text, { chain: 'flows.f.onError', index: 0 }, LOG_HI);
    expectEdit(text, onError, "flows:\n  f:\n    steps: []   # nothing yet\n    onError: # TODO\n      - log:\n          message: '\"hi\"'\n");
  });

  it('refuses a place past the end, saying how many steps there are', () => {
    expect(() => insertStep(ORDERS, { chain: 'flows.orders.steps', index: 9 }, LOG_HI)).toThrow(/has 4 items; there is no place 9/);
    expect(() => insertStep(ORDERS, { chain: 'flows.nope.steps', index: 0 }, LOG_HI)).toThrow(FlowEditError);
  });
});

describe('deleting a step', () => {
  it('removes its lines and the blank line after it', () => {
    const r = deleteStep(ORDERS, 'flows.orders.steps[1]');
    expectEdit(ORDERS, r, changed(ORDERS, ["      - set:\n          vars: {count: 'size(body.items)'}   # how many\n\n", '']));
    expect(r.follow('flows.orders.steps[1]')).toBeUndefined();
    expect(r.follow('flows.orders.steps[2].switch.cases[0].steps[0]')).toBe('flows.orders.steps[1].switch.cases[0].steps[0]');
  });

  it('takes the comment lines above a step with it', () => {
    const r = deleteStep(ORDERS, 'flows.orders.steps[0]');
    expectEdit(
      ORDERS,
      r,
      changed(ORDERS, ["      # reject empty orders first\n      - name: require items\n        filter:\n          condition: has(body.items)\n          reject: {status: 400, body: '\"no items\"'}\n\n", '']),
    );
  });

  it('leaves `[]` when the only step of a chain goes', () => {
    const r = deleteStep(ORDERS, 'flows.orders.steps[2].switch.default[0]');
    expectEdit(ORDERS, r, changed(ORDERS, ["          default:\n            - log: {message: \"'small order'\"}", '          default: []']));
  });
});

describe('duplicating a step', () => {
  it('puts a copy (without the comment above it) right after it', () => {
    const r = duplicateStep(ORDERS, 'flows.orders.steps[0]');
    const step = "      - name: require items\n        filter:\n          condition: has(body.items)\n          reject: {status: 400, body: '\"no items\"'}\n";
    expectEdit(ORDERS, r, changed(ORDERS, [`${step}\n`, `${step}\n${step}\n`]));
    expect(r.select).toBe('flows.orders.steps[1]');
  });
});

describe('moving a step', () => {
  it('moves down within its chain with its comment', () => {
    const r = moveStep(ORDERS, 'flows.orders.steps[0]', { chain: 'flows.orders.steps', index: 3 });
    const first = "      # reject empty orders first\n      - name: require items\n        filter:\n          condition: has(body.items)\n          reject: {status: 400, body: '\"no items\"'}\n";
    expectEdit(ORDERS, r, changed(ORDERS, [`${first}\n`, ''], ["      - log:\n          message: '\"done\"'", `${first}\n      - log:\n          message: '\"done\"'`]));
    expect(r.select).toBe('flows.orders.steps[2]');
    expect(r.follow('flows.orders.steps[0]')).toBe('flows.orders.steps[2]');
    expect(r.follow('flows.orders.steps[2].switch.default[0]')).toBe('flows.orders.steps[1].switch.default[0]');
    expect(r.follow('flows.orders.steps[3]')).toBe('flows.orders.steps[3]');
  });

  it('moves into a switch case, re-indented', () => {
    const r = moveStep(ORDERS, 'flows.orders.steps[3]', { chain: 'flows.orders.steps[2].switch.cases[0].steps', index: 1 });
    expectEdit(
      ORDERS,
      r,
      changed(
        ORDERS,
        ["\n      - log:\n          message: '\"done\"'\n", '\n'],
        ["                - log: {message: '\"big order\"'}\n", "                - log: {message: '\"big order\"'}\n                - log:\n                    message: '\"done\"'\n"],
      ),
    );
    expect(r.select).toBe('flows.orders.steps[2].switch.cases[0].steps[1]');
  });

  it('moves out of a branch and before the switch that held it, the paths after it shifting', () => {
    const r = moveStep(ORDERS, 'flows.orders.steps[2].switch.default[0]', { chain: 'flows.orders.steps', index: 2 });
    expect(r.select).toBe('flows.orders.steps[2]');
    expect(r.follow('flows.orders.steps[2].switch.default[0]')).toBe('flows.orders.steps[2]');
    expect(r.follow('flows.orders.steps[2]')).toBe('flows.orders.steps[3]');
    expect(r.text).toContain("      - log: {message: \"'small order'\"}\n\n      - switch:");
    expect(r.text).toContain('          default: []\n');
    expectEdit(ORDERS, r, r.text);
  });

  it('refuses to move a step into itself', () => {
    expect(() => moveStep(ORDERS, 'flows.orders.steps[2]', { chain: 'flows.orders.steps[2].switch.default', index: 0 })).toThrow(/into itself/);
  });
});

describe('the parse an edit reads', () => {
  it('is the one another reader of the same text made (the settings form), and the edit is as it would be without it', () => {
    const fresh = insertStep(ORDERS, { chain: 'flows.orders.steps', index: 1 }, LOG_HI);
    const doc = parsedDefinition(ORDERS);
    expect(parsedDefinition(`${ORDERS}`)).toBe(doc);
    expect(insertStep(ORDERS, { chain: 'flows.orders.steps', index: 1 }, LOG_HI)).toEqual({ ...fresh, follow: expect.any(Function) });
    // Reading the edit's own document, and the one before it again.
    expect(parsedDefinition(fresh.text)).not.toBe(doc);
    expect(parsedDefinition(ORDERS).toString()).toBe(doc.toString());
  });
});

describe('a text that does not parse', () => {
  it('is refused with the line and column where the YAML breaks, the text left to the person', () => {
    // Half-typed: an inline map opened after the message on line 13.
    const typing = ORDERS.replace(`message: '"done"'`, `message: '"done"' {oops: [`);
    expect(typing.split('\n')[25]).toContain('{oops: [');
    expect(() => insertStep(typing, { chain: 'flows.orders.steps', index: 1 }, LOG_HI)).toThrow(FlowEditError);
    expect(() => insertStep(typing, { chain: 'flows.orders.steps', index: 1 }, LOG_HI)).toThrow(/does not parse as YAML at line 26, column \d+ \(/);
  });
});
