import type { Locator, Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { focusEditor, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

const api = (path: string) => `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  a-flow-with-a-rather-long-name-to-show-in-the-waterfall:
    source: {type: http, path: "${path}", methods: [POST]}
    steps:
      - name: a step whose name is long enough to need more room than a narrow pane gives it
        set: {body: '{"ok": true}'}
`;
const names = ['e2e-layout-integration-with-a-long-name', 'e2e-layout-second-integration', 'e2e-layout-third-integration'];

/** The element is on screen in full: inside the viewport, with a size. */
async function expectOnScreen(page: Page, el: Locator): Promise<void> {
  await expect(el).toBeVisible();
  const box = (await el.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.width).toBeGreaterThan(8);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(view.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height + 0.5);
}

/** Runs the one palette command that matches `query`; the palette must open empty every time. */
async function paletteCommand(page: Page, query: string): Promise<void> {
  // What the field holds the moment the palette is put on screen, before any later render.
  await page.evaluate(() => {
    const w = window as { paletteOpenedWith?: string };
    delete w.paletteOpenedWith;
    const seen = new MutationObserver(() => {
      const field = document.querySelector<HTMLInputElement>('[role="dialog"][aria-label="Command palette"] input');
      if (!field) return;
      w.paletteOpenedWith = field.value;
      seen.disconnect();
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const input = palette.getByRole('combobox');
  await expect(input).toBeFocused();
  expect(await page.evaluate(() => (window as { paletteOpenedWith?: string }).paletteOpenedWith), 'the palette opened with the previous query').toBe('');
  await expect(input).toHaveValue('');
  // Filled and confirmed on the field itself: an editor that finishes loading behind the palette
  // may take the keyboard focus, and typed keys would then land in the editor instead.
  await input.fill(query);
  await expect(palette.getByRole('option')).toHaveCount(1);
  await input.press('Enter');
  await expect(palette).toBeHidden();
}

test.describe('layout at 1024×700 and the theme', () => {
  test.use({ viewport: { width: 1024, height: 700 } });
  test.beforeAll(({ studio }) => {
    for (const [i, id] of names.entries()) writeIntegration(studio.workspaceDir, id, { 'api.yaml': api(`/a/long/path/for/layout/number-${i}/{id}/details`) });
  });

  test('the status bar, the Save button, the URL field and waterfall labels stay reachable with long text', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    for (const id of names) {
      const card = page.getByRole('listitem', { name: id });
      await card.getByRole('button', { name: `Run ${id}` }).click();
      await expect(card.getByRole('status', { name: `${id} is running` })).toBeVisible({ timeout: 15_000 });
    }
    // Every integration's name and state, and the Ctrl+K hint, are in the status bar and on screen.
    const bar = page.getByRole('contentinfo', { name: 'Status' });
    for (const id of names) {
      const item = bar.locator(`.status-item[data-integration="${id}"]`);
      await expectOnScreen(page, item);
      await expect(item).toHaveAttribute('title', new RegExp(`^${id}: running v1 · http://`));
    }
    await expectOnScreen(page, bar.getByText('Ctrl+K commands'));

    // The editor's Save button stays whole beside a long file path.
    await openFile(page, names[0], 'api.yaml');
    await expectOnScreen(page, page.getByRole('button', { name: 'Save file' }));
    // An unsaved edit's marker shows whole: the path gives way, not the marker after it.
    await focusEditor(page);
    await page.keyboard.type('#');
    const openLabel = page.getByLabel('Open file');
    const marker = openLabel.getByLabel('unsaved changes');
    await expect(marker).toBeVisible();
    const [labelBox, markerBox] = [(await openLabel.boundingBox())!, (await marker.boundingBox())!];
    expect(markerBox.x + markerBox.width).toBeLessThanOrEqual(labelBox.x + labelBox.width + 0.5);
    await screenshotsAtBothSizes(page, 'layout-flows-long-names');
    await focusEditor(page);
    await page.keyboard.press('Control+z');
    await expect(marker).toHaveCount(0);

    // The composer's URL field keeps room to read the URL.
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('button', { name: `New request to /a/long/path/for/layout/number-0/{id}/details of ${names[0]}` }).click();
    const url = page.getByRole('textbox', { name: 'URL' });
    await expectOnScreen(page, url);
    expect((await url.boundingBox())!.width).toBeGreaterThan(250);
    await expectOnScreen(page, page.getByRole('button', { name: 'Send', exact: true }));
    await screenshotsAtBothSizes(page, 'layout-requests-long-url');

    // A waterfall label is on screen with its full text in a tooltip.
    const state = (await (await page.request.post(`${studio.origin}/api/call/runStates`, { data: { args: [] } })).json()).value as Array<{ integration: string; routes: Array<{ url: string }> }>;
    const target = state.find((s) => s.integration === names[0])!.routes[0].url.replace('{id}', '42');
    await fetch(target, { method: 'POST' });
    await page.getByRole('tab', { name: 'Traces' }).click();
    const runRow = page.locator('.trace-row[data-kind="run"]').first();
    // Whole outcome words and the duration fit in a row of the run list.
    for (const cell of ['.cell.outcome', '.cell.duration']) {
      await expectOnScreen(page, runRow.locator(cell));
      expect(await runRow.locator(cell).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    await runRow.click();
    const step = page.getByRole('list', { name: 'Steps' }).locator('[data-block="set"]');
    await expectOnScreen(page, step.locator('.waterfall-label'));
    await expect(step.locator('.waterfall-label')).toHaveAttribute('title', /a step whose name is long enough/);
    await screenshotsAtBothSizes(page, 'layout-traces-long-labels');

    await page.getByRole('tab', { name: 'Flows' }).click();
    for (const id of names) await page.getByRole('listitem', { name: id }).getByRole('button', { name: `Stop ${id}` }).click();
    health.expectNone();
  });

  test('a theme chosen in one tab shows in the other tab of the same studio, editor included', async ({ page, studio }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openStudio(page, studio.url);
    const other = await page.context().newPage();
    await other.emulateMedia({ colorScheme: 'light' });
    await other.goto(`${studio.origin}/`);
    await openFile(other, names[2], 'api.yaml');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await expect(other.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(other.getByRole('combobox', { name: 'Theme' })).toHaveValue('dark');
    await expect(other.locator('.flow-editor .monaco-editor')).toHaveClass(/vs-dark/);
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    await expect(other.locator('html')).not.toHaveAttribute('data-theme', /./);
    await other.close();
  });

  test('a theme toggle in the rail and the palette switches light and dark, editor included, and is remembered', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await openStudio(page, studio.url);
    await openFile(page, names[1], 'api.yaml');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await expect(page.locator('.flow-editor .monaco-editor')).toHaveClass(/\bvs\b/);

    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await background()).not.toBe(light);
    await expect(page.locator('.flow-editor .monaco-editor')).toHaveClass(/vs-dark/);
    await screenshotsAtBothSizes(page, 'theme-dark');

    // Remembered across a reload.
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // The editor comes back and takes focus once loaded; the palette is opened after that.
    await expect(page.locator('.flow-editor .monaco-editor')).toHaveClass(/vs-dark/);
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('dark');

    // From the palette: back to light, then to the system's (light here).
    await paletteCommand(page, 'theme: light');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await background()).toBe(light);
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('light');
    // A chosen theme holds whatever the OS prefers.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe(light);
    await page.emulateMedia({ colorScheme: 'light' });
    await paletteCommand(page, 'theme: follow');
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).not.toBe(light);
    await page.emulateMedia({ colorScheme: 'light' });
    health.expectNone();
  });
});
