import { expect, test } from './studio-fixture.ts';
import { cursorToLineEnd, hoverUntilShown, openFile, openStudio, writeIntegration } from './flows-helpers.ts';

const ORDERS = `connectors:
  web: {type: http, port: 0}
flows:
  orders:
    source:
      type: http
      path: /orders/{orderId}
      methods: [GET]
    steps:
      - name: big orders
        filter:
          condition: math.greatest(1, 2) > 1
      - log:
          message: '"order " + vars.orderId'
          level: info
`;

test.describe('the CEL extension libraries in the editor', () => {
  test.beforeAll(({ studio }) => {
    writeIntegration(studio.workspaceDir, 'e2e-cel-libraries', { 'orders.yaml': ORDERS });
  });

  test.beforeEach(async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-cel-libraries', 'orders.yaml');
  });

  test('completion after math. offers the math functions and nothing else', async ({ page }) => {
    await cursorToLineEnd(page, 12);
    await page.keyboard.type(' && math.');
    const suggestions = page.locator('.suggest-widget .monaco-list-row');
    await expect(suggestions.filter({ hasText: 'abs' })).toBeVisible();
    await expect(suggestions.filter({ hasText: 'bitAnd' })).toBeVisible();
    await expect(suggestions.filter({ hasText: 'body' })).toHaveCount(0);
    await page.keyboard.type('lea');
    await expect(suggestions.filter({ hasText: 'least' })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.locator('.flow-editor .view-lines')).toContainText('math.greatest(1, 2) > 1 && math.least()');
  });

  test('hover over a library function shows its signature, description and example', async ({ page }) => {
    const hover = page.locator('.monaco-hover').filter({ hasText: 'math.greatest(dyn, ...): dyn' });
    await hoverUntilShown(page, 'condition: math.greatest(1, 2) > 1', 28, hover);
    await expect(hover).toContainText('The greatest of its numeric arguments');
    await expect(hover).toContainText('math.greatest(1, 2.5, 3u) → 3u');
  });

  test('the CEL playground evaluates the libraries against the sample message', async ({ page }) => {
    await cursorToLineEnd(page, 12);
    await page.getByRole('tab', { name: 'CEL playground' }).click();
    const playground = page.getByRole('region', { name: 'CEL playground' });
    await expect(playground.getByLabel('CEL expression')).toHaveValue('math.greatest(1, 2) > 1');
    await expect(playground.getByLabel('Result')).toContainText('true');
    await playground.getByLabel('Sample message').fill('{"body": {"items": [{"sku": "A-1"}, {"sku": "b-2"}]}, "vars": {"orderId": "7"}}');
    await playground.getByLabel('CEL expression').fill("body.items.transformList(i, item, '%d:%s'.format([i, item.sku.lowerAscii()])).join(',')");
    await expect(playground.getByLabel('Result')).toContainText('0:a-1,1:b-2');
  });
});
