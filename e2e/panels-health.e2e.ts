import type { Locator, Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { cursorToLineEnd, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';
import { typeInEditor } from './resources-helpers.ts';

const panels = ['Flows', 'Requests', 'Traces', 'Queues & Topics', 'Storage', 'Resources', 'Secrets', 'Logs'];

const ORDERS = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
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
      - set: {body: '{"id": vars.orderId}'}
`;

/** The label of a suggestion row is laid out beside its icon, wide enough to read. */
async function expectReadableSuggestion(row: Locator): Promise<void> {
  await expect(row).toBeVisible();
  const label = row.locator('.label-name').first();
  const icon = row.locator('.suggest-icon').first();
  const [labelBox, iconBox, rowBox] = [await label.boundingBox(), await icon.boundingBox(), await row.boundingBox()];
  expect(labelBox!.width).toBeGreaterThan(20);
  expect(labelBox!.height).toBeGreaterThan(8);
  // One line: the label sits to the right of the icon, inside the row, not stacked below it.
  expect(labelBox!.x).toBeGreaterThanOrEqual(iconBox!.x + iconBox!.width - 1);
  expect(labelBox!.y + labelBox!.height).toBeLessThanOrEqual(rowBox!.y + rowBox!.height + 1);
  expect(await label.evaluate((el) => getComputedStyle(el.closest('.main')!).flexDirection)).not.toBe('column');
}

async function visitPanel(page: Page, panel: string): Promise<void> {
  await page.getByRole('tab', { name: panel }).click();
  await expect(page.getByRole('heading', { level: 2, name: panel })).toBeVisible();
  // The shell's grid holds: the rail on the left of the panel, both from the top, the status bar at the bottom.
  const rail = (await page.getByRole('tablist', { name: 'Panels' }).boundingBox())!;
  const main = (await page.locator('#panel').boundingBox())!;
  const status = (await page.getByRole('contentinfo', { name: 'Status' }).boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(rail.x + rail.width).toBeLessThanOrEqual(main.x + 1);
  expect(main.y).toBeLessThan(2);
  expect(status.y + status.height).toBeGreaterThan(viewport.height - 2);
}

test.describe('every panel, as a user first meets it', () => {
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-health', { 'orders.yaml': ORDERS }));

  test('no panel raises a page error or a console error, and each is screenshotted at 1440×900 and 1024×700', async ({ page, studio }) => {
    test.setTimeout(120_000);
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-health' });
    await card.getByRole('button', { name: 'Run e2e-health' }).click();
    await expect(card.getByRole('status', { name: 'e2e-health is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!.replace('{orderId}', '7');
    await fetch(`${url}?id=1`);
    await fetch(url);
    // Every panel the rail offers, whatever was added since this was written.
    const offered = await page.getByRole('tablist', { name: 'Panels' }).getByRole('tab').allTextContents();
    expect(offered).toEqual(expect.arrayContaining(panels));
    for (const panel of offered) {
      await visitPanel(page, panel);
      await screenshotsAtBothSizes(page, `panel-${panel.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
    await visitPanel(page, 'Flows');
    await card.getByRole('button', { name: 'Stop e2e-health' }).click();
    health.expectNone();
  });

  test('typing in an env resource tokenizes every line without an error', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    await visitPanel(page, 'Resources');
    const picker = page.getByRole('combobox', { name: 'Integration' });
    await picker.selectOption('e2e-health');
    const form = page.getByRole('form', { name: 'New resource' });
    await form.getByRole('textbox', { name: 'Name' }).fill('typed.env');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('button', { name: 'env/typed.env' })).toHaveAttribute('aria-current', 'true');
    await typeInEditor(page, 'e2e-health/env/typed.env', '# local\nFOO=1\nexport BAR = "two words"\nBAZ=\'x\' # note\n');
    const editor = page.getByTestId('resource-editor');
    await expect(editor.locator('.view-lines')).toContainText('BAR = "two words"');
    // Highlighted as an env file: the name and the value get different token colours.
    const foo = editor.locator('.view-line', { hasText: 'FOO=1' });
    // Monaco tokenizes in the background after an edit: a loaded machine can read the line first.
    const colours = (): Promise<number> => foo.locator('span span').evaluateAll((spans) => new Set(spans.map((s) => getComputedStyle(s).color)).size);
    await expect.poll(colours, { timeout: 10_000 }).toBeGreaterThan(1);
    await screenshotsAtBothSizes(page, 'resources-env-typed');
    health.expectNone();
  });

  test('YAML and CEL completion rows show their labels beside their icons', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-health', 'orders.yaml');
    const suggestions = page.locator('.suggest-widget .monaco-list-row');

    // YAML, from the schema: the source types. The YAML worker may still be loading the schema
    // when the first Ctrl+Space comes (a loaded run showed no suggestion in 10 s), and a loaded
    // run once lost the erasing keystrokes and the cursor (the list offered top-level keys at
    // 1:1): each try puts the cursor back, erases `http` if it is still there (Monaco draws the
    // space as a no-break space, hence \s) and asks again, as a user would, until the list shows.
    const sourceType = page.locator('.flow-editor .view-line', { hasText: /^\s*type:\shttp\s*$/ });
    await expect(async () => {
      await page.keyboard.press('Escape');
      await cursorToLineEnd(page, 6);
      if ((await sourceType.count()) > 0) for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
      await page.keyboard.press('Control+Space');
      await expect(suggestions.filter({ hasText: 'schedule' })).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await expectReadableSuggestion(suggestions.filter({ hasText: 'schedule' }));
    await screenshotsAtBothSizes(page, 'flows-yaml-completion');
    await page.keyboard.press('Escape');
    await page.keyboard.type('http');

    // CEL, inside a condition: the route's path parameter.
    await cursorToLineEnd(page, 12);
    await page.keyboard.type(' && vars.');
    await expectReadableSuggestion(suggestions.filter({ hasText: 'orderId' }));
    await screenshotsAtBothSizes(page, 'flows-cel-completion');
    await page.keyboard.press('Escape');
    health.expectNone();
  });
});
