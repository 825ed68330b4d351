import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { call, openStudio } from './requests-helpers.ts';

const RUNS = 100_000;
const ROW = 28;

/**
 * Runs `act` in the page and resolves with the milliseconds until `done` holds, checked on every
 * DOM change; both measured with the page's own clock, so Playwright's round trips do not count.
 */
async function timeInPage(page: Page, act: string, done: string): Promise<number> {
  return page.evaluate(
    ({ act, done }) =>
      new Promise<number>((resolve, reject) => {
        const check = new Function(`return (${done})`) as () => boolean;
        const t0 = performance.now();
        const observer = new MutationObserver(() => {
          if (!check()) return;
          observer.disconnect();
          resolve(performance.now() - t0);
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
        setTimeout(() => {
          observer.disconnect();
          reject(new Error(`not done within 10 s: ${done}`));
        }, 10_000);
        (new Function(act) as () => void)();
      }),
    { act, done },
  );
}

const countIs = (text: string): string => `document.querySelector('[aria-label="matching runs"]')?.textContent === ${JSON.stringify(text)}`;

test.describe('the Traces panel with 100,000 stored runs', () => {
  test('opens and filters by text in under 500 ms, and scrolls without blank frames', async ({ page, studio }) => {
    test.setTimeout(90_000);
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'clearRuns');
    const seeded = await page.request.post(`${studio.origin}/__test/seed-runs`, { data: { count: RUNS } });
    expect((await seeded.json()).stored).toBe(RUNS);

    const openMs = await timeInPage(page, `document.getElementById('tab-traces').click()`, countIs('100,000 of 100,000 runs'));
    await expect(page.locator('.run-row').first()).toBeVisible();

    // A customer name that occurs in exactly one run's request body.
    const filterMs = await timeInPage(
      page,
      `const input = document.querySelector('input[aria-label="Search runs"]');
       Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, 'fatima-99997');
       input.dispatchEvent(new Event('input', { bubbles: true }));`,
      `${countIs('1 of 100,000 runs')} && document.querySelector('.run-row[data-run="seed-99997"]') !== null`,
    );
    const storeMs = Number(await page.locator('.answer-time').getAttribute('data-store-ms'));
    console.log(`traces with ${RUNS} runs: panel open ${openMs.toFixed(0)} ms, text filter ${filterMs.toFixed(0)} ms (store scan ${storeMs} ms)`);
    expect(openMs).toBeLessThan(500);
    expect(filterMs).toBeLessThan(500);

    await page.getByRole('searchbox', { name: 'Search runs' }).fill('');
    await expect(page.getByLabel('matching runs')).toHaveText('100,000 of 100,000 runs');

    // Scroll steadily (about 7,000 px a second) and check, every frame, that each row in view is
    // rendered with its run rather than missing or still loading.
    const blank = await page.evaluate(
      ({ row }) =>
        new Promise<{ frames: number; blank: number; rowsPassed: number }>((resolve) => {
          const list = document.querySelector('[role="table"][aria-label="Runs"]') as HTMLElement;
          let frames = 0;
          let blank = 0;
          const step = (): void => {
            const first = Math.floor(list.scrollTop / row);
            const last = Math.min(Math.ceil((list.scrollTop + list.clientHeight) / row), 100_000) - 1;
            for (let i = first; i <= last; i++) {
              const el = list.querySelector(`[aria-rowindex="${i + 1}"]`);
              if (!el || el.querySelector('.run-row-pending') || !el.querySelector('.run-row')) {
                blank++;
                break;
              }
            }
            frames++;
            if (frames >= 300) return resolve({ frames, blank, rowsPassed: first });
            list.scrollTop += 120;
            requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        }),
      { row: ROW },
    );
    console.log(`scrolled ${blank.rowsPassed} rows in ${blank.frames} frames, ${blank.blank} with a blank or loading row in view`);
    expect(blank.rowsPassed).toBeGreaterThan(1_000);
    expect(blank.blank).toBe(0);
    // Only the rows in view (and a few around them) exist in the page.
    expect(await page.locator('.run-row').count()).toBeLessThan(80);
    await page.screenshot({ path: 'test-results/e2e-screenshots/traces-100k-runs.png' });
  });
});
