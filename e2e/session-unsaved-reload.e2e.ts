import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withRestartingStudio } from './restarting-studio.ts';
import { cursorToLineEnd, focusEditor, openFile } from './flows-helpers.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

const fileRow = (page: Page, integration: string, label: string) => page.getByRole('listitem', { name: integration }).getByRole('button', { name: label, exact: true });

test.describe('a tab with unsaved edits while the studio restarts', () => {
  test('Reload on the restart banner gives back the open file and what was typed, still unsaved', async ({ page }) => {
    test.setTimeout(180_000);
    await withRestartingStudio('studio-unsaved-reload-e2e-', async (studio) => {
      const { workspace } = studio;
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(studio.url);
      // Not the file the studio opens first, so the test sees the open file come back.
      await openFile(page, 'orders-api', 'orders.yaml');
      const onDisk = readFileSync(join(workspace, 'orders-api', 'orders.yaml'), 'utf8');
      await cursorToLineEnd(page, 1);
      await page.keyboard.type(' # half-way through a change');
      await expect(page.getByLabel('Open file').getByLabel('unsaved changes')).toBeVisible();

      await studio.restart();
      const banner = page.getByRole('alert', { name: 'Studio restarted' });
      await expect(banner).toBeVisible({ timeout: 30_000 });
      await banner.getByRole('button', { name: 'Reload' }).click();
      await expect(page.getByRole('alert', { name: 'Studio restarted' })).toHaveCount(0);

      await expect(page.getByLabel('Open file')).toContainText('orders-api/orders.yaml', { timeout: 20_000 });
      await expect(page.locator('.flow-editor .view-lines')).toContainText('# half-way through a change', { timeout: 20_000 });
      await expect(page.getByLabel('Open file').getByLabel('unsaved changes')).toBeVisible();
      await expect(fileRow(page, 'orders-api', 'orders.yaml (unsaved)')).toBeVisible();
      // Nothing was written behind the person's back: the file is as it was saved.
      expect(readFileSync(join(workspace, 'orders-api', 'orders.yaml'), 'utf8')).toBe(onDisk);
      await screenshotsAtBothSizes(page, 'unsaved-edit-after-restart-reload');

      // Undo goes back to the file as it is on disk.
      await focusEditor(page);
      await page.keyboard.press('Control+z');
      await expect(page.getByLabel('Open file').getByLabel('unsaved changes')).toHaveCount(0);
      await expect(fileRow(page, 'orders-api', 'orders.yaml')).toBeVisible();
    });
  });

  test('a file changed on disk while the studio was down: the restored edits say so and undo reaches the new file', async ({ page }) => {
    test.setTimeout(180_000);
    await withRestartingStudio('studio-draft-over-change-e2e-', async (studio) => {
      const { workspace } = studio;
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(studio.url);
      await openFile(page, 'orders-api', 'orders.yaml');
      await cursorToLineEnd(page, 1);
      await page.keyboard.type(' # typed before the checkout');
      await expect(page.getByLabel('Open file').getByLabel('unsaved changes')).toBeVisible();

      // A `git checkout` while the studio is down: the file the edits were typed over is gone.
      const path = join(workspace, 'orders-api', 'orders.yaml');
      const checkedOut = `# from the other branch\n${readFileSync(path, 'utf8')}`;
      await studio.restart(() => writeFileSync(path, checkedOut));
      const banner = page.getByRole('alert', { name: 'Studio restarted' });
      await expect(banner).toBeVisible({ timeout: 30_000 });
      await banner.getByRole('button', { name: 'Reload' }).click();

      await expect(page.locator('.flow-editor .view-lines')).toContainText('# typed before the checkout', { timeout: 20_000 });
      await expect(page.locator('.notice')).toContainText('orders.yaml changed on disk since your unsaved edits');
      await expect(page.getByLabel('Open file').getByLabel('unsaved changes')).toBeVisible();
      expect(readFileSync(path, 'utf8')).toBe(checkedOut);
      await screenshotsAtBothSizes(page, 'draft-over-changed-file');

      // The file on disk is one undo away.
      await focusEditor(page);
      await page.keyboard.press('Control+z');
      await expect(page.locator('.flow-editor .view-lines')).toContainText('# from the other branch');
      await expect(page.getByLabel('Open file').getByLabel('unsaved changes')).toHaveCount(0);
    });
  });

  test('a reload comes back on the panel the tab showed, and Flows on the file it had open', async ({ page, studio }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(studio.url);
    await openFile(page, 'webhook-receiver', 'webhook.yaml');
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Logs' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Flows' }).click();
    await expect(page.getByLabel('Open file')).toContainText('webhook-receiver/webhook.yaml', { timeout: 20_000 });
  });
});
