import { expect, test } from './studio-fixture.ts';
import { call, openStudio } from './requests-helpers.ts';

test.describe('the Traces run list when the filters match nothing', () => {
  test('says the stored runs are there but the filters hide them, and one click clears the filters', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'clearRuns');
    const seeded = await page.request.post(`${studio.origin}/__test/seed-runs`, { data: { count: 40 } });
    expect((await seeded.json()).stored).toBe(40);
    await page.getByRole('tab', { name: 'Traces' }).click();
    await expect(page.getByLabel('matching runs')).toHaveText('40 of 40 runs');

    await page.getByLabel('Search runs').fill('yuzu-matches-no-run');
    await page.getByRole('textbox', { name: 'Status' }).fill('4xx');
    const list = page.getByRole('table', { name: 'Runs' });
    await expect(list).toContainText('No runs match');
    // Not the first-start advice to send a request: 40 runs are stored, the filters hide them.
    await expect(list).toContainText('None of the 40 stored runs match these filters');
    await expect(list).not.toContainText('Send a request');

    await list.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByLabel('matching runs')).toHaveText('40 of 40 runs');
    await expect(page.getByLabel('Search runs')).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Status' })).toHaveValue('');
  });
});
