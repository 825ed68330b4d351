import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { call, editFile, openStudio, reloadedAfter, startIntegration, writeIntegration } from './requests-helpers.ts';
import { openFile } from './flows-helpers.ts';

const SHOP = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  quote:
    source: {type: http, path: /quote, methods: [POST]}
    steps:
      - name: require items
        filter:
          condition: has(body.items) && size(body.items) > 0
          reject: {status: 400, body: '{"error": "a quote needs at least one item"}'}
      - name: line totals
        set:
          vars: {lines: 'body.items.map(i, i.price * i.quantity)'}
      - name: answer
        set:
          body: '{"customer": body.customer, "lineTotals": vars.lines}'
`;

const ROUTER = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  route:
    source: {type: http, path: /route, methods: [POST]}
    steps:
      - name: classify
        set: {vars: {kind: 'body.kind'}}
      - name: by kind
        switch:
          cases:
            - when: 'vars.kind == "bulk"'
              steps:
                - name: bulk discount
                  set: {vars: {discount: '0.1'}}
                - name: price it
                  set: {body: '{"total": double(body.qty) * 2.0 * (1.0 - vars.discount)}'}
          default:
            - name: list price
              set: {body: '{"total": double(body.qty) * 2.0}'}
      - name: answer
        set: {body: '{"answer": body}'}
`;

const SHOTS = 'test-results/e2e-screenshots';

/** Opens a stored run in the Traces panel by searching for its id. */
async function openRun(page: Page, runId: string): Promise<void> {
  await page.getByRole('tab', { name: 'Traces' }).click();
  await page.getByRole('searchbox', { name: 'Search runs' }).or(page.getByRole('textbox', { name: 'Search runs' })).fill(runId);
  // The row of exactly this run (the search also matches longer ids): clicked once the filtered
  // list shows it, rather than trying rows while the list may still be refreshing.
  await page.getByRole('table', { name: 'Runs' }).locator(`[data-run="${runId}"]`).click();
  await expect(page.getByRole('region', { name: `Run ${runId}` }).or(page.getByLabel(`Run ${runId}`))).toBeVisible();
}

test.describe('flow tests from real runs, and re-run from any step', () => {
  test('a run saved as a test passes, an edit makes it fail with a diff, and a re-run from a middle step links and compares', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'quotes', { 'shop.yaml': SHOP });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'quotes');
    const entry = await call<{ runId?: string; response: { status: number } }>(page, studio.origin, 'sendRequest', {
      id: 'e2e-quote',
      method: 'POST',
      url: state.routes[0].url,
      headers: [['content-type', 'application/json']],
      body: { kind: 'json', text: JSON.stringify({ customer: 'ana', items: [{ price: 2.5, quantity: 4 }] }) },
      target: { integration: 'quotes', flow: 'quote', route: '/quote' },
    });
    expect(entry.response.status).toBe(200);
    const runId = entry.runId!;

    // Save the run as a test, keeping status and body.
    await openRun(page, runId);
    await page.getByRole('button', { name: 'Save as test…' }).click();
    const form = page.getByRole('form', { name: 'Save run as test' });
    await form.getByRole('textbox', { name: 'Test name' }).fill('quotes an order');
    await expect(form.getByRole('checkbox', { name: 'Status' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Body' })).toBeChecked();
    await form.getByRole('button', { name: 'Save test' }).click();
    await expect(form.getByRole('status')).toContainText('Saved “quotes an order” to quote.test.yaml');
    const testFile = join(studio.workspaceDir, 'quotes', 'quote.test.yaml');
    expect(existsSync(testFile)).toBe(true);
    expect(readFileSync(testFile, 'utf8')).toContain('fixture: fixtures/quotes-an-order.json');
    await page.screenshot({ path: `${SHOTS}/flow-tests-save-as-test.png` });

    // It passes in the Tests panel.
    await form.getByRole('button', { name: 'Open Tests' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Tests' })).toBeVisible();
    await page.getByRole('button', { name: 'Run all' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'passed' })).toContainText('1 passed, 0 failed');
    await expect(page.getByRole('listitem', { name: 'Test quotes an order' })).toHaveClass(/test-pass/);

    // The flow graph shows what the tests went through: every step, and the filter's pass branch only.
    await page.getByRole('button', { name: 'show on the flow graph' }).click();
    await openFile(page, 'quotes', 'shop.yaml');
    const graph = page.getByRole('region', { name: 'Flow graph of quote' });
    await expect(graph.locator('.coverage-badge.covered')).toHaveText(['tested ×1', 'tested ×1', 'tested ×1']);
    await page.screenshot({ path: `${SHOTS}/flow-tests-graph-coverage.png` });
    await page.getByRole('tab', { name: 'Tests' }).click();

    // An edit to the flow makes it fail with a readable diff naming the step.
    editFile(studio.workspaceDir, 'quotes', 'shop.yaml', (t) => t.replace('i.price * i.quantity', 'i.price * i.quantity + 1'));
    await reloadedAfter(page, studio.origin, 'quotes', state.generation);
    await page.getByRole('button', { name: 'Run all' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'passed' })).toContainText('0 passed, 1 failed');
    const failure = page.getByRole('group', { name: 'Failure response.body' });
    await expect(failure).toContainText('differs at body.lineTotals[0]');
    const diff = failure.getByLabel('Expected vs actual');
    await expect(diff.locator('.diff-expected')).toHaveText(['-     10']);
    await expect(diff.locator('.diff-actual')).toHaveText(['+     11']);
    await expect(failure).toContainText('diverged at flows.quote.steps[2] (answer)');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/flow-tests-failure-diff-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/flow-tests-failure-diff-1024.png` });
    await page.getByRole('button', { name: 'Trace of the failing run' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Traces' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Steps' }).locator('[data-block]')).toHaveText([/require items/, /line totals/, /answer/]);

    // Re-run the original from its middle step with an edited body.
    await openRun(page, runId);
    await page.getByRole('list', { name: 'Steps' }).locator('[data-step="flows.quote.steps[1]"]').click();
    await page.getByRole('button', { name: 'Re-run from here…' }).click();
    const editor = page.getByTestId('rerun-editor');
    await expect(editor).toContainText('"customer"');
    await editor.locator('.monaco-editor').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{"body": {"customer": "bo", "items": [{"price": 3, "quantity": 3}]}, "vars": {"method": "POST"');
    await expect(page.getByRole('list', { name: 'Problems in the message' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run from this step' })).toBeDisabled();
    await page.keyboard.insertText('}}');
    await expect(page.getByRole('list', { name: 'Problems in the message' })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/flow-tests-rerun-editor.png` });
    await page.getByRole('button', { name: 'Run from this step' }).click();

    // The new run is linked to the original and compares with it in one click.
    await expect(page.getByText(`Re-run of run ${runId}`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Steps' }).locator('[data-block]')).toHaveText([/line totals/, /answer/]);
    await page.getByRole('button', { name: 'Compare with the original' }).click();
    const compare = page.getByRole('region', { name: 'Compare runs' }).or(page.getByLabel('Compare runs'));
    await expect(compare).toBeVisible();
    // The original ran the filter first; the re-run started at line totals, with another body.
    await expect(compare.getByRole('row', { name: 'require items: differs' })).toContainText('not taken');
    await compare.getByRole('row', { name: 'answer: differs' }).click();
    await expect(compare).toContainText('"bo"');
    await page.screenshot({ path: `${SHOTS}/flow-tests-rerun-compare.png` });

    // The captured request that started the original run saves as a test too.
    await openRun(page, runId);
    await page.getByRole('button', { name: /^Captured request #/ }).click();
    await page.getByRole('button', { name: 'Save as test…' }).click();
    const fromCapture = page.getByRole('form', { name: 'Save run as test' });
    await fromCapture.getByRole('textbox', { name: 'Test name' }).fill('quotes from the capture');
    await fromCapture.getByRole('button', { name: 'Save test' }).click();
    await expect(fromCapture.getByRole('status')).toContainText('Saved “quotes from the capture” to quote.test.yaml');
    expect(readFileSync(testFile, 'utf8')).toContain('quotes from the capture:');
  });

  test('a re-run from a step inside a switch case runs the rest of the case and the flow; the run list marks test runs and re-runs and filters by them', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'router', {
      'router.yaml': ROUTER,
      'route.test.yaml': `tests:\n  bulk orders get a discount:\n    flow: route\n    input: {method: POST, path: /route, body: {kind: bulk, qty: 10}}\n    expect: {response: {status: 200, body: {answer: {total: 18.0}}}}\n`,
    });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'router');
    const entry = await call<{ runId?: string; response: { status: number } }>(page, studio.origin, 'sendRequest', {
      id: 'e2e-route',
      method: 'POST',
      url: state.routes[0].url,
      headers: [['content-type', 'application/json']],
      body: { kind: 'json', text: JSON.stringify({ kind: 'bulk', qty: 10 }) },
      target: { integration: 'router', flow: 'route', route: '/route' },
    });
    expect(entry.response.status).toBe(200);
    const runId = entry.runId!;

    // A step nested in the bulk case offers the re-run; the edited body runs the rest of the case, then "answer".
    await openRun(page, runId);
    await page.getByRole('list', { name: 'Steps' }).locator('[data-step="flows.route.steps[1].switch.cases[0].steps[1]"]').click();
    await page.getByRole('button', { name: 'Re-run from here…' }).click();
    await expect(page.getByLabel('Re-run from this step')).toContainText('the rest of its branch and then the rest of the flow');
    const editor = page.getByTestId('rerun-editor');
    await expect(editor).toContainText('"discount"');
    await editor.locator('.monaco-editor').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{"body": {"kind": "bulk", "qty": 100}, "vars": {"kind": "bulk", "discount": 0.5}}');
    await expect(page.getByRole('list', { name: 'Problems in the message' })).toHaveCount(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/flow-tests-nested-rerun-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/flow-tests-nested-rerun-1024.png` });
    await page.getByRole('button', { name: 'Run from this step' }).click();
    await expect(page.getByText(`Re-run of run ${runId}`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Steps' }).locator('[data-block]')).toHaveText([/by kind/, /price it/, /answer/]);
    await page.getByRole('button', { name: 'Compare with the original' }).click();
    const compare = page.getByRole('region', { name: 'Compare runs' }).or(page.getByLabel('Compare runs'));
    await compare.getByRole('row', { name: 'answer: differs' }).click();
    await expect(compare).toContainText('100');

    // A flow test run goes to the list too; each row says where it came from.
    const tests = await call<{ results: Array<{ passed: boolean; runId?: string }> }>(page, studio.origin, 'runFlowTests', { integration: 'router' });
    expect(tests.results.map((r) => r.passed)).toEqual([true]);
    await page.getByRole('tab', { name: 'Traces' }).click();
    const search = page.getByRole('searchbox', { name: 'Search runs' }).or(page.getByRole('textbox', { name: 'Search runs' }));
    await search.fill('');
    // The worker's studio is shared with the test above: the list is narrowed to this flow first.
    await page.getByRole('combobox', { name: 'Flow' }).selectOption('route');
    const runs = page.getByRole('table', { name: 'Runs' });
    const rowOf = (id: string) => runs.locator(`[data-run="${id}"]`);
    await expect(rowOf(tests.results[0].runId!).locator('.origin-badge')).toHaveText('test');
    await expect(runs.locator('.origin-badge.origin-rerun')).toHaveText([`re-run of ${runId}`]);
    await expect(rowOf(runId).locator('.origin-badge')).toHaveCount(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/run-list-origin-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/run-list-origin-1024.png` });

    // The origin filter keeps only the runs of that kind.
    const origin = page.getByRole('combobox', { name: 'Origin' });
    await origin.selectOption({ label: 'flow tests' });
    await expect(runs.locator('[data-run]')).toHaveCount(1);
    await expect(runs.locator('[data-run] .origin-badge')).toHaveText(['test']);
    await origin.selectOption({ label: 're-runs' });
    await expect(runs.locator('[data-run] .origin-badge')).toHaveText([`re-run of ${runId}`]);
    await origin.selectOption({ label: 'requests and sources' });
    await expect(rowOf(runId)).toBeVisible();
    await expect(runs.locator('[data-run] .origin-badge')).toHaveCount(0);
    await origin.selectOption({ label: 'any origin' });
    await expect(runs.locator('.origin-badge')).toHaveCount(2);
  });
});
