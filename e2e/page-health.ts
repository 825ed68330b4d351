import { expect, type Page } from '@playwright/test';

/**
 * Collects every uncaught page error and console error of a page, so a test can fail on any of
 * them: a tokenizer that throws on each line shows nothing on screen but is a broken editor.
 */
export function collectPageErrors(page: Page): { errors: string[]; expectNone(): void } {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}\n${err.stack ?? ''}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console error: ${m.text()} (${m.location().url})`);
  });
  return { errors, expectNone: () => expect(errors, 'page errors and console errors').toEqual([]) };
}

export const viewports = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/** Screenshots of what the page shows at 1440×900 and 1024×700, named `<name>-<w>x<h>.png`. */
export async function screenshotsAtBothSizes(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const v of viewports) {
    await page.setViewportSize(v);
    await page.screenshot({ path: `test-results/e2e-screenshots/${name}-${v.width}x${v.height}.png` });
  }
  if (before) await page.setViewportSize(before);
}
