import { availableParallelism, loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { columnX, cursorToLineEnd, hoverUntilShown, openFile, openStudio, writeIntegration } from './flows-helpers.ts';

const ORDERS = `connectors:
  web: {type: http, port: 0}
  api: {type: http-client, baseURL: "https://api.example.com"}
flows:
  orders:
    source:
      type: http
      path: /orders/{orderId}
      methods: [GET]
    steps:
      - name: only known orders
        filter:
          condition: has(vars.query.id)
      - log:
          message: '"order " + vars.orderId'
          level: info
`;

const problems = (page: Page) => page.getByRole('list', { name: 'Definition problems' });

test.describe('designing flows in the editor', () => {
  test.beforeAll(({ studio }) => {
    writeIntegration(studio.workspaceDir, 'e2e-editor', { 'orders.yaml': ORDERS });
    writeIntegration(studio.workspaceDir, 'e2e-palette', { 'orders.yaml': ORDERS });
  });

  // Monaco, its workers and the analysis worker all load under the studio's CSP.
  let violations: string[] = [];
  test.beforeEach(async ({ page, studio }) => {
    violations = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-editor', 'orders.yaml');
  });

  test.afterEach(() => expect(violations).toEqual([]));

  test('typing an unknown key shows a marker within 300 ms and a problem that jumps to it', async ({ page }) => {
    await cursorToLineEnd(page, 16);
    await page.keyboard.press('Home');
    // Time from the keystroke to the loader's problem on screen, measured in the page.
    await page.evaluate(() => {
      const w = window as unknown as { markerDelay: Promise<number> };
      w.markerDelay = new Promise<number>((resolve) => {
        let typedAt = 0;
        document.addEventListener('keydown', () => (typedAt = performance.now()), { capture: true, once: true });
        const seen = new MutationObserver(() => {
          if (typedAt && document.body.textContent?.includes('unknown setting "xlevel"')) {
            seen.disconnect();
            resolve(performance.now() - typedAt);
          }
        });
        seen.observe(document.body, { childList: true, subtree: true, characterData: true });
      });
    });
    await page.keyboard.type('x');
    const problem = problems(page).getByRole('button', { name: /orders\.yaml:16:11/ });
    await expect(problem).toContainText('unknown setting "xlevel"; did you mean "level"?', { timeout: 2_000 });
    const delay = await page.evaluate(() => (window as unknown as { markerDelay: Promise<number> }).markerDelay);
    console.log(`load diagnostics shown ${delay.toFixed(0)} ms after the keystroke`);
    // 300 ms on a machine to itself; the budget grows with the run-queue per core under other load.
    expect(delay).toBeLessThan(300 * Math.max(1, loadavg()[0] / availableParallelism()));
    await expect(page.locator('.flow-editor .squiggly-error').first()).toBeVisible();
    await cursorToLineEnd(page, 1);
    await problem.click();
    await page.keyboard.type('y');
    await expect(problems(page)).toContainText('unknown setting "yxlevel"');
  });

  test('a CEL syntax error shows a marker at the column where the expression breaks', async ({ page }) => {
    await cursorToLineEnd(page, 13);
    await page.keyboard.type(' > > 1');
    const problem = problems(page).getByRole('button', { name: /orders\.yaml:13:43/ });
    await expect(problem).toContainText('flows.orders.steps[0].filter.condition');
    await expect(problem).toContainText('CEL:');
    const squiggle = page.locator('.flow-editor .squiggly-error').first();
    await expect(squiggle).toBeVisible();
    const at = await columnX(page, 'condition: has(vars.query.id) > > 1', 43);
    const box = (await squiggle.boundingBox())!;
    expect(Math.abs(box.x - at.x)).toBeLessThan(2);
  });

  test('a call to an undeclared CEL function shows a marker at the call, suggesting the close name, while typing', async ({ page }) => {
    await cursorToLineEnd(page, 13);
    // Typed as a person does; Escape closes completion so no suggestion is taken instead.
    await page.keyboard.type(' && sise');
    await page.keyboard.press('Escape');
    await page.keyboard.type('(vars.query');
    await page.keyboard.press('Escape');
    await page.keyboard.type(') > 0');
    await expect(page.locator('.flow-editor .view-lines')).toContainText('has(vars.query.id) && sise(vars.query) > 0');
    const problem = problems(page).getByRole('button', { name: /orders\.yaml:13:44/ });
    await expect(problem).toContainText('flows.orders.steps[0].filter.condition');
    await expect(problem).toContainText('CEL: unknown function "sise"; did you mean "size"?');
    const squiggle = page.locator('.flow-editor .squiggly-error').first();
    await expect(squiggle).toBeVisible();
    const at = await columnX(page, 'condition: has(vars.query.id) && sise(vars.query) > 0', 44);
    expect(Math.abs((await squiggle.boundingBox())!.x - at.x)).toBeLessThan(2);
    // Fixing the name clears it without a save.
    for (let i = 0; i < ' > 0'.length + '(vars.query)'.length + 1; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('z');
    await expect(page.getByText('No problems: e2e-editor loads as written.')).toBeVisible();
    await expect(page.locator('.flow-editor .squiggly-error')).toHaveCount(0);
  });

  test('completion after vars. inside a filter condition offers the route’s path parameter', async ({ page }) => {
    await cursorToLineEnd(page, 13);
    await page.keyboard.type(' && vars.');
    const suggestions = page.locator('.suggest-widget .monaco-list-row');
    await expect(suggestions.filter({ hasText: 'orderId' })).toBeVisible();
    await expect(suggestions.filter({ hasText: 'query' })).toBeVisible();
    await page.keyboard.type('ord');
    await page.keyboard.press('Enter');
    await expect(page.locator('.flow-editor .view-lines')).toContainText('has(vars.query.id) && vars.orderId');
  });

  test('the schema completes source types and hover shows a setting’s description and default', async ({ page }) => {
    await cursorToLineEnd(page, 7);
    for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
    await page.keyboard.press('Control+Space');
    const suggestions = page.locator('.suggest-widget .monaco-list-row');
    await expect(suggestions.filter({ hasText: 'schedule' })).toBeVisible();
    await expect(suggestions.filter({ hasText: 'queue' })).toBeVisible();
    await page.keyboard.press('Escape');
    const hover = page.locator('.monaco-hover').filter({ hasText: 'Severity.' });
    await hoverUntilShown(page, 'level: info', 12, hover);
    await expect(hover).toContainText('default info');
  });

  test('the CEL playground evaluates the expression under the cursor against a sample message', async ({ page }) => {
    await cursorToLineEnd(page, 13);
    await page.getByRole('tab', { name: 'CEL playground' }).click();
    const playground = page.getByRole('region', { name: 'CEL playground' });
    await expect(playground.getByLabel('CEL expression')).toHaveValue('has(vars.query.id)');
    await expect(playground.getByLabel('Result')).toContainText('false');
    await playground.getByLabel('Sample message').fill('{"body": {}, "vars": {"query": {"id": "7"}, "orderId": "7"}}');
    await expect(playground.getByLabel('Result')).toContainText('true');
    await playground.getByLabel('CEL expression').fill('vars.orderId + 1');
    await expect(playground.getByRole('alert')).toContainText('Evaluation error');
    await playground.getByLabel('CEL expression').fill('vars.orderId + ');
    await expect(playground.getByRole('alert')).toContainText('Syntax error');
  });

  test('the palette inserts a rest block that validates, using the declared http-client connector', async ({ page, studio }) => {
    await openFile(page, 'e2e-palette', 'orders.yaml');
    await cursorToLineEnd(page, 15);
    await page.getByRole('tab', { name: 'Blocks' }).click();
    await page.getByLabel('Filter components').fill('rest');
    const rest = page.getByRole('listitem', { name: 'block rest', exact: true });
    await rest.getByRole('button', { expanded: false }).click();
    await expect(page.getByRole('region', { name: 'Block palette' })).toContainText('Sends one HTTP request');
    await rest.getByRole('button', { name: 'Insert block rest', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Inserted rest.' })).toBeVisible();
    await expect(page.getByText('No problems: e2e-palette loads as written.')).toBeVisible();
    await page.keyboard.press('Control+s');
    await expect(page.getByLabel('unsaved changes')).toBeHidden();
    const saved = await page.request.post(`${studio.origin}/api/call/readFile`, { data: { args: ['e2e-palette', 'orders.yaml'] } });
    expect((await saved.json()).value).toContain('      - rest:\n          connector: api\n          path: /orders\n');
    const check = await page.request.post(`${studio.origin}/api/call/validateDefinition`, { data: { args: ['e2e-palette', []] } });
    expect((await check.json()).value).toEqual([]);
  });
});
