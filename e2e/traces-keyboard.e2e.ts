import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { call, openStudio } from './requests-helpers.ts';

/** The run shown in row `index` (0: the newest), read once that row is rendered. */
async function runAt(page: Page, index: number): Promise<string> {
  const row = page.locator(`[role="table"][aria-label="Runs"] [aria-rowindex="${index + 1}"] .run-row`);
  await expect(row).toBeVisible();
  return (await row.getAttribute('data-run'))!;
}

const selected = (page: Page) => page.locator('.run-row[aria-selected="true"]');

test.describe('the Traces run list from the keyboard', () => {
  test('↑ and ↓ step through the runs, scrolling the selected one into view; Home goes back to the newest', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'clearRuns');
    const seeded = await page.request.post(`${studio.origin}/__test/seed-runs`, { data: { count: 300 } });
    expect((await seeded.json()).stored).toBe(300);
    await page.getByRole('tab', { name: 'Traces' }).click();
    await expect(page.getByLabel('matching runs')).toHaveText('300 of 300 runs');

    const list = page.getByRole('table', { name: 'Runs' });
    const newest = await runAt(page, 0);
    await list.locator(`.run-row[data-run="${newest}"]`).click();
    await expect(selected(page)).toHaveAttribute('data-run', newest);

    // Well past the rows in view at first: each ↓ selects the next, and the list follows it.
    for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowDown');
    const fortieth = await runAt(page, 40);
    await expect(selected(page)).toHaveAttribute('data-run', fortieth);
    await expect(selected(page)).toBeInViewport({ ratio: 1 });
    await expect(page.getByText(`run ${fortieth}`, { exact: false }).first()).toBeVisible();

    await page.keyboard.press('ArrowUp');
    await expect(selected(page)).toHaveAttribute('data-run', await runAt(page, 39));

    await page.keyboard.press('Home');
    await expect(selected(page)).toHaveAttribute('data-run', newest);
    await expect(selected(page)).toBeInViewport({ ratio: 1 });
    // ↑ at the newest stays there.
    await page.keyboard.press('ArrowUp');
    await expect(selected(page)).toHaveAttribute('data-run', newest);
  });
});
