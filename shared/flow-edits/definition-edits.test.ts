import { describe, expect, it } from 'vitest';
import { expectEdit } from './tests/edit-checks.ts';
import { addConnector, addFlow, insertStep, setDefinitionValue, setStepSetting } from './index.ts';
import { ORDERS } from './tests/orders-fixture.ts';
import { changed } from './tests/text-changes.ts';

describe('adding a flow and a connector', () => {
  it('adds a flow with its source after the others', () => {
    const r = addFlow(ORDERS, 'health', { type: 'http', path: '/health' });
    expectEdit(ORDERS, r, `${ORDERS}  health:\n    source:\n      type: http\n      path: /health\n    steps: []\n`);
  });

  it('starts an empty file with `flows:` and keeps a comment-only file’s comments', () => {
    const web = addConnector('', 'web', { type: 'http', port: 0 });
    expect(web.text).toBe('connectors:\n  web:\n    type: http\n    port: 0\n');
    const r = addFlow(web.text, 'hello', { type: 'http', path: '/hello' });
    expectEdit(web.text, r, `${web.text}flows:\n  hello:\n    source:\n      type: http\n      path: /hello\n    steps: []\n`);
    const commented = '# my flows\n';
    expect(addFlow(commented, 'hello').text).toBe('# my flows\n\nflows:\n  hello:\n    steps: []\n');
  });

  it('refuses a name that is taken', () => {
    expect(() => addFlow(ORDERS, 'orders')).toThrow(/already a flow named orders/);
  });

  it('adds a connector after the others, the inline one left as it was', () => {
    const r = addConnector(ORDERS, 'api', { type: 'http-client', baseURL: 'http://127.0.0.1:1' });
    const web = '  web: {type: http, port: 0}   # loopback\n';
    expectEdit(ORDERS, r, changed(ORDERS, [web, `${web}  api:\n    type: http-client\n    baseURL: http://127.0.0.1:1\n`]));
  });
});

describe('setting a step setting', () => {
  it('replaces a plain value, keeping it plain', () => {
    const r = setStepSetting(ORDERS, 'flows.orders.steps[0]', ['condition'], 'has(body.items) && size(body.items) > 0');
    expectEdit(ORDERS, r, changed(ORDERS, ['condition: has(body.items)\n', 'condition: has(body.items) && size(body.items) > 0\n']));
  });

  it('replaces a value inside an inline map, the map staying inline', () => {
    const r = setStepSetting(ORDERS, 'flows.orders.steps[0]', ['reject', 'status'], 422);
    expectEdit(ORDERS, r, changed(ORDERS, ['{status: 400,', '{status: 422,']));
  });

  it('keeps single quotes single', () => {
    const r = setStepSetting(ORDERS, 'flows.orders.steps[3]', ['message'], "\"it's done\"");
    expectEdit(ORDERS, r, changed(ORDERS, ["message: '\"done\"'", "message: '\"it''s done\"'"]));
  });

  it('adds a setting below the others, or inside the braces of an inline map', () => {
    const block = setStepSetting(ORDERS, 'flows.orders.steps[3]', ['level'], 'warn');
    expectEdit(ORDERS, block, changed(ORDERS, ["          message: '\"done\"'\n", "          message: '\"done\"'\n          level: warn\n"]));
    const inline = setStepSetting(ORDERS, 'flows.orders.steps[2].switch.default[0]', ['level'], 'warn');
    expectEdit(ORDERS, inline, changed(ORDERS, ["{message: \"'small order'\"}", "{message: \"'small order'\", level: warn}"]));
  });

  it('removes a setting with its line', () => {
    const r = setStepSetting(ORDERS, 'flows.orders.steps[0]', ['reject'], undefined);
    expectEdit(ORDERS, r, changed(ORDERS, ["          reject: {status: 400, body: '\"no items\"'}\n", '']));
  });

  it('removes a step’s name from the line of its dash, the block taking the dash', () => {
    const r = setStepSetting(ORDERS, 'flows.orders.steps[0]', ['name'], undefined);
    expectEdit(ORDERS, r, changed(ORDERS, ['      - name: require items\n        filter:\n', '      - filter:\n']));
  });

  it('names a step on the line of its dash', () => {
    const r = setStepSetting(ORDERS, 'flows.orders.steps[3]', ['name'], 'finish');
    expectEdit(ORDERS, r, changed(ORDERS, ["      - log:\n          message: '\"done\"'", "      - name: finish\n        log:\n          message: '\"done\"'"]));
  });

  it('gives a block with no settings its first one', () => {
    const text = insertStep(ORDERS, { chain: 'flows.orders.steps', index: 4 }, { log: { message: '"x"' } }).text;
    const r = setStepSetting(text, 'flows.orders.steps[4]', ['level'], 'debug');
    expect(r.text.endsWith("      - log:\n          message: '\"x\"'\n          level: debug\n")).toBe(true);
  });

  it('replaces a folded or literal block value, the next setting staying on its own line', () => {
    const text = `flows:\n  f:\n    steps:\n      - set:\n          body: >-\n            {"a": 1,\n             "b": 2}\n          # the vars come next\n          vars: {x: '1'}\n      - log:\n          message: |\n            "done"\n\n      - log: {message: '"end"'}\n`;
    const body = setStepSetting(text, 'flows.f.steps[0]', ['body'], '{"a": 3}');
    expectEdit(text, body, changed(text, ['>-\n            {"a": 1,\n             "b": 2}\n', '\'{"a": 3}\'\n']));
    const message = setStepSetting(text, 'flows.f.steps[1]', ['message'], '"finished"');
    expectEdit(text, message, changed(text, ['|\n            "done"\n', '\'"finished"\'\n']));
  });

  it('sets a source setting by its keys, inside the inline source', () => {
    const r = setDefinitionValue(ORDERS, ['flows', 'orders', 'source', 'path'], '/orders/new');
    expectEdit(ORDERS, r, changed(ORDERS, ['path: /orders,', 'path: /orders/new,']));
  });
});
