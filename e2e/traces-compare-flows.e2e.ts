import { expect, test } from './studio-fixture.ts';
import { call, openStudio } from './requests-helpers.ts';

test.describe('comparing two runs of different flows', () => {
  test('the heading names both flows, not only run A’s', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'clearRuns');
    // Seeded runs take the flows in turn: seed-0 is price-order, seed-1 receive-webhook.
    const seeded = await page.request.post(`${studio.origin}/__test/seed-runs`, { data: { count: 2 } });
    expect((await seeded.json()).stored).toBe(2);
    await page.getByRole('tab', { name: 'Traces' }).click();
    await page.getByRole('checkbox', { name: 'Pick seed-0 to compare' }).check();
    await page.getByRole('checkbox', { name: 'Pick seed-1 to compare' }).check();
    await page.getByRole('button', { name: /^Compare/ }).click();
    const compare = page.getByRole('region', { name: 'Compare runs' });
    await expect(compare.getByRole('heading')).toContainText('Compare price-order with receive-webhook');
    await expect(compare.getByRole('heading')).not.toContainText('Compare price-order runs');
  });
});
