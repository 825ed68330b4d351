import { expect, test } from './studio-fixture.ts';
import { openStudio } from './requests-helpers.ts';
import { post, runIntegration } from './platform-views-support.ts';

test.describe('the Live feed when the filters match nothing', () => {
  test('says the feed holds traces the filters hide, not “No traces yet”, and one click clears the filters', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const routes = await runIntegration(
      page,
      studio.origin,
      'kumquat-live',
      `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  kumquat-echo:
    source: {type: http, path: /kumquat, methods: [POST]}
    steps:
      - set: {body: '{"got": body}'}
`,
    );
    await page.getByRole('tab', { name: 'Traces' }).click();
    await page.getByRole('tab', { name: 'Live' }).click();
    expect((await post(routes['kumquat-echo'], { a: 1 })).status).toBe(200);
    const feed = page.getByLabel('Traces', { exact: true });
    await expect(feed.locator('[data-flow="kumquat-echo"]').first()).toBeVisible();

    await page.getByLabel('Search runs').fill('matches-no-kumquat');
    await expect(page.getByText('No traces yet')).toHaveCount(0);
    await expect(page.getByText(/None of the \d+ traces in the feed match these filters/)).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByLabel('Search runs')).toHaveValue('');
    await expect(feed.locator('[data-flow="kumquat-echo"]').first()).toBeVisible();
  });
});
