import { test as base, expect, type Page } from '@playwright/test';
import { withRestartingStudio } from './restarting-studio.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

/** Counts the studio calls a page makes from now on. */
function countCalls(page: Page): { count(): number } {
  let n = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/call/')) n++;
  });
  return { count: () => n };
}

base.describe('a tab left open while the studio restarts', () => {
  base('says the studio restarted, stops asking, and reloads into the new start with the integration running again', async ({ page }) => {
    base.setTimeout(180_000);
    await withRestartingStudio('studio-restart-e2e-', async (studio) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(studio.url);
      const card = page.getByRole('listitem', { name: 'orders-api' });
      await card.getByRole('button', { name: 'Run orders-api' }).click();
      await expect(card.getByRole('status', { name: 'orders-api is running' })).toBeVisible({ timeout: 15_000 });
      const url = await card.getByRole('list', { name: 'Routes' }).textContent();

      await studio.restart();
      const banner = page.getByRole('alert', { name: 'Studio restarted' });
      await expect(banner).toBeVisible({ timeout: 30_000 });
      await expect(banner).toContainText('Flow Studio restarted.');
      await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('disconnected: the studio restarted');
      await screenshotsAtBothSizes(page, 'restart-banner');

      // The tab has stopped asking: no calls while it shows the banner (the run list polls otherwise).
      const calls = countCalls(page);
      await page.getByRole('tab', { name: 'Traces' }).click();
      await page.waitForTimeout(2_000);
      expect(calls.count()).toBe(0);

      // Reload gets in with the kept session, and the integration runs again at the same URL.
      await page.setViewportSize({ width: 1440, height: 900 });
      await banner.getByRole('button', { name: 'Reload' }).click();
      await expect(page.getByRole('tablist', { name: 'Panels' })).toBeVisible();
      await expect(page.getByRole('alert', { name: 'Studio restarted' })).toHaveCount(0);
      await page.getByRole('tab', { name: 'Flows' }).click();
      await expect(card.getByRole('status', { name: 'orders-api is running' })).toBeVisible({ timeout: 15_000 });
      await expect(card.getByRole('list', { name: 'Routes' })).toHaveText(url!);
    });
  });
});
