import type { Locator, Page } from '@playwright/test';
import { openFile, openStudio } from './flows-helpers.ts';
import { viewports } from './page-health.ts';
import { expect, test } from './studio-fixture.ts';

/** The chips of the strip cut by its visible edge (part in view, part out), and those wholly out of view. */
async function chipsInView(strip: Locator): Promise<{ cut: string[]; outOfView: number; total: number; scrollTop: number }> {
  return strip.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const cut: string[] = [];
    let outOfView = 0;
    const chips = [...el.querySelectorAll('button')];
    for (const chip of chips) {
      const r = chip.getBoundingClientRect();
      const inside = r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
      const outside = r.bottom <= box.top + 0.5 || r.top >= box.bottom - 0.5;
      if (!inside && !outside) cut.push(chip.textContent ?? '');
      if (outside) outOfView++;
    }
    return { cut, outOfView, total: chips.length, scrollTop: el.scrollTop };
  });
}

/** Turns the mouse wheel over the strip and resolves once its scrolling (and snapping) has ended. */
async function wheelOver(page: Page, strip: Locator, deltaY: number): Promise<void> {
  const ended = strip.evaluate((el) => new Promise<void>((resolve) => el.addEventListener('scrollend', () => resolve(), { once: true })));
  await strip.hover();
  await page.mouse.wheel(0, deltaY);
  await ended;
}

async function openGraph(page: Page, url: string): Promise<Locator> {
  await openStudio(page, url);
  await openFile(page, 'queue-worker', 'queue-worker.yaml');
  // A narrow window starts with the graph folded away.
  const show = page.getByRole('button', { name: 'Show graph and blocks' });
  if (await show.isVisible()) await show.click();
  const strip = page.getByRole('toolbar', { name: 'Blocks to add' });
  await expect(strip.getByRole('button', { name: 'Add block set', exact: true })).toBeAttached();
  return strip;
}

test.describe('the block strip above the graph', () => {
  for (const viewport of viewports) {
    test(`shows whole rows of chips at ${viewport.width}×${viewport.height} and says how many more there are`, async ({ page, studio }) => {
      await page.setViewportSize(viewport);
      const strip = await openGraph(page, studio.url);
      const chips = strip.locator('.graph-palette-chips');

      // Closed: no chip half shown at the strip's edge, and "+N more" counts those out of view.
      const closed = await chipsInView(chips);
      expect(closed.cut).toEqual([]);
      expect(closed.outOfView).toBeGreaterThan(0);
      const more = strip.getByRole('button', { name: `+${closed.outOfView} more` });
      await expect(more).toHaveAttribute('aria-expanded', 'false');

      // A wheel turn over the strip lands on a row's top, never between rows.
      await wheelOver(page, chips, 30);
      const wheeled = await chipsInView(chips);
      expect(wheeled.scrollTop).toBeGreaterThan(0);
      expect(wheeled.cut).toEqual([]);
      await expect(strip.getByRole('button', { name: `+${wheeled.outOfView} more` })).toBeVisible();

      // Opened: more rows, still whole, still scrolled only a whole row at a time.
      await strip.getByRole('button', { name: /^\+\d+ more$/ }).click();
      const fewer = strip.getByRole('button', { name: 'fewer' });
      await expect(fewer).toHaveAttribute('aria-expanded', 'true');
      const opened = await chipsInView(chips);
      expect(opened.cut).toEqual([]);
      expect(opened.outOfView).toBeLessThan(closed.outOfView);
      await wheelOver(page, chips, 50);
      const scrolledOpen = await chipsInView(chips);
      expect(scrolledOpen.scrollTop).toBeGreaterThan(0);
      expect(scrolledOpen.cut).toEqual([]);
      await expect(strip.getByText(`${scrolledOpen.outOfView} more: scroll`)).toBeVisible();
      await page.screenshot({ path: `test-results/e2e-screenshots/graph-palette-open-${viewport.width}x${viewport.height}.png` });

      await fewer.click();
      await expect(strip.getByRole('button', { name: /^\+\d+ more$/ })).toBeVisible();
      expect((await chipsInView(chips)).cut).toEqual([]);
    });
  }

  test('a filter that leaves few blocks shows them all, with no "more" to open', async ({ page, studio }) => {
    const strip = await openGraph(page, studio.url);
    await strip.getByLabel('Filter blocks to add').fill('queue');
    await expect(strip.getByRole('button', { name: 'Add block queue-publish', exact: true })).toBeVisible();
    await expect(strip.getByRole('button', { name: /more$/ })).toHaveCount(0);
    const view = await chipsInView(strip.locator('.graph-palette-chips'));
    expect(view).toMatchObject({ cut: [], outOfView: 0 });
  });
});
