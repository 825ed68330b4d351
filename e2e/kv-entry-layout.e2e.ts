import type { Locator, Page } from '@playwright/test';
import { call, openStudio } from './platform-views-support.ts';
import { expect, test } from './studio-fixture.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

async function openKv(page: Page, url: string): Promise<void> {
  await openStudio(page, url);
  await page.getByRole('tab', { name: 'Storage' }).click();
  await page.getByRole('tab', { name: 'Key/value' }).click();
  await page.getByRole('navigation', { name: 'Namespaces' }).getByRole('button', { name: /^user\b/ }).click();
}

/** The horizontal space between a label's own text and the control inside it. */
async function gapAfterLabelText(label: Locator): Promise<number> {
  return label.evaluate((el) => {
    const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '')!;
    const range = document.createRange();
    range.selectNodeContents(text);
    const t = range.getBoundingClientRect();
    const control = el.querySelector('select')!.getBoundingClientRect();
    // Side by side: the gap to its right; stacked: the gap below.
    return control.left >= t.right - 1 ? control.left - t.right : control.top - t.bottom;
  });
}

test.describe('a KV entry in the Storage panel', () => {
  test('the editor keeps its Format label clear of the select at both sizes', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'writeKvEntry', { namespace: 'user', key: 'layout/format', text: '{"n":1}', format: 'json', expectedVersion: 0 });
    await openKv(page, studio.url);
    await page.getByRole('button', { name: 'Key layout/format' }).click();
    const entry = page.getByRole('region', { name: 'Entry layout/format' });
    await entry.getByRole('button', { name: 'Edit' }).click();
    const format = entry.locator('label', { hasText: 'Format' });
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      expect(await gapAfterLabelText(format), `gap at ${size.width}x${size.height}`).toBeGreaterThanOrEqual(4);
    }
    await screenshotsAtBothSizes(page, 'kv-editor-format');
  });

  test('a key holding a tab or a line break reads as such, and a 2,000-character key wraps in its heading and copies whole', async ({ page, studio }) => {
    const long = `orders/${'k'.repeat(1_993)}`;
    await openStudio(page, studio.url);
    for (const key of ['orders/1\tline', 'orders/1 line', 'orders/2\nbreak', long]) {
      await call(page, studio.origin, 'writeKvEntry', { namespace: 'user', key, text: '{"id":1}', format: 'json', expectedVersion: 0 });
    }
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await openKv(page, studio.url);
    const keys = page.getByRole('table', { name: 'Keys' });
    await expect(keys).toContainText('1\\tline');
    await expect(keys).toContainText('1 line');
    await expect(keys).toContainText('2\\nbreak');

    await page.getByRole('button', { name: 'Key orders/1\\tline' }).click();
    const tabbed = page.getByRole('region', { name: 'Entry orders/1\\tline' });
    await expect(tabbed.getByRole('heading')).toHaveText('orders/1\\tline');
    await tabbed.getByRole('button', { name: 'Copy key' }).click();
    await expect(tabbed.getByRole('status')).toHaveText('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('orders/1\tline');

    await page.getByRole('button', { name: /^Key orders\/k{100}/ }).click();
    const entry = page.getByRole('region', { name: `Entry ${long}` });
    const heading = entry.getByRole('heading');
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      // Wrapped inside the entry's column: nothing runs past its right edge, and the value stays in view.
      const [box, column] = [await heading.boundingBox(), await entry.boundingBox()];
      expect(box!.x + box!.width, `heading's right edge at ${size.width}x${size.height}`).toBeLessThanOrEqual(column!.x + column!.width + 1);
      expect(await page.locator('.pv-kv-entry').evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      await expect(entry.getByLabel('Value')).toBeInViewport();
    }
    await entry.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(long);
    await screenshotsAtBothSizes(page, 'kv-long-key');
    await page.getByRole('button', { name: 'Key orders/2\\nbreak' }).click();
    await screenshotsAtBothSizes(page, 'kv-control-key');
  });
});
