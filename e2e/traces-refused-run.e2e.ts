import { openStudio, runIntegration } from './platform-views-support.ts';
import { expect, test } from './studio-fixture.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

const ORDERS = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  receive-order:
    source: {type: http, path: /orders, methods: [POST], maxBodyBytes: 1024}
    steps:
      - set: {body: '{"received": true}'}
`;

test.describe('a request the http source refused before the flow ran', () => {
  test('its run says once, as a refusal, why the request was turned away', async ({ page, studio }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openStudio(page, studio.url);
    const routes = await runIntegration(page, studio.origin, 'refusals', ORDERS);
    const res = await fetch(routes['receive-order'], { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": 1,' });
    expect(res.status).toBe(400);

    await page.getByRole('tab', { name: 'Traces' }).click();
    await page.getByRole('combobox', { name: 'Outcome' }).selectOption('rejected');
    const row = page.locator('.run-row[data-flow="receive-order"]');
    await expect(row).toHaveCount(1);
    await row.click();
    const banner = page.getByRole('alert', { name: 'Request refused before the flow ran' });
    await expect(banner).toContainText('Refused by the http source before the flow ran');
    await expect(banner).toContainText(/malformed JSON body: /);
    await expect(page.getByRole('alert', { name: 'Verification failed' })).toHaveCount(0);
    // The reason once in the run's detail, not again in a red error line above the banner.
    await expect(page.locator('.run-detail').getByText(/malformed JSON body: /)).toHaveCount(1);
    await screenshotsAtBothSizes(page, 'refused-run');
  });
});
