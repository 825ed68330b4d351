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
    await call(page, studio.origin, 'writeKvEntry', { namespace: 'user', key: 'reports/count', text: '{"n":1}', format: 'json', expectedVersion: 0 });
    await openKv(page, studio.url);
    await page.getByRole('button', { name: 'Key reports/count' }).click();
    const entry = page.getByRole('region', { name: 'Entry reports/count' });
    await entry.getByRole('button', { name: 'Edit' }).click();
    const format = entry.locator('label', { hasText: 'Format' });
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      expect(await gapAfterLabelText(format), `gap at ${size.width}x${size.height}`).toBeGreaterThanOrEqual(4);
    }
    await screenshotsAtBothSizes(page, 'kv-editor-format');
  });
});
