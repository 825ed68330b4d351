import { expect, test } from './studio-fixture.ts';
import { call, openStudio } from './requests-helpers.ts';

test.describe('the Traces panel after a load its runtime could not trace whole', () => {
  test('says how many runs went untraced under load, to a window opened afterwards, until the runs are cleared', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'clearRuns');
    // A runtime that left 5,678 runs untraced while saturated, before this window looked.
    const hook = await page.request.post(`${studio.origin}/__test/untraced-runs`, { data: { integration: 'shop', count: 5678 } });
    expect(await hook.json()).toEqual({ notTraced: 5678 });

    await page.getByRole('tab', { name: /Traces/ }).click();
    const note = page.getByTestId('runs-not-traced-list');
    await expect(note).toHaveText('· 5,678 untraced under load');
    await expect(note).toHaveAttribute('title', /FLOW_TRACE_SATURATED_RATE/);
    await expect(page.getByLabel('matching runs')).toHaveText('0 of 0 runs');

    await page.getByRole('button', { name: 'Clear runs' }).click();
    await expect(note).toHaveCount(0);
  });
});
