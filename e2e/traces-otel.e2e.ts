import { expect, test } from './studio-fixture.ts';
import { openStudio, startIntegration, writeIntegration } from './requests-helpers.ts';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';

const SHOP = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  checkout:
    source: {type: http, connector: web, path: /checkout, methods: [POST]}
    steps:
      - queue-publish: {subject: shipments, body: '{"order": body.order}'}
      - set: {body: '{"queued": true}'}
  ship:
    source: {type: queue, subject: shipments}
    steps:
      - set: {body: '{"shipped": body.order}'}
`;

test.describe('trace context in the studio', () => {
  test('a request with a traceparent and the queue consumer it caused show one trace id and link to each other', async ({ page, studio }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    writeIntegration(studio.workspaceDir, 'shop', { 'shop.yaml': SHOP });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'shop');
    const route = state.routes.find((r) => r.flow === 'checkout')!;
    const res = await page.request.post(route.url, {
      headers: { 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-b7ad6b7169203331-01` },
      data: { order: 42 },
    });
    expect(res.status()).toBe(200);

    await page.getByRole('tab', { name: 'Traces' }).click();
    // Both runs are found by the caller's trace id.
    await page.getByRole('searchbox', { name: 'Search runs' }).or(page.getByLabel('Search runs')).first().fill(CALLER_TRACE);
    const runs = page.getByRole('table', { name: 'Runs' });
    await expect(runs.locator('[data-kind="run"]')).toHaveCount(2);
    await runs.locator('[data-kind="run"][data-flow="checkout"]').click();
    const detail = page.getByRole('region', { name: /^Run / });
    await expect(detail.locator('.trace-id')).toHaveText(CALLER_TRACE);
    const others = detail.getByLabel('Other runs of this trace');
    await expect(others).toContainText('ship');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: 'test-results/e2e-screenshots/traces-trace-id-1440.png' });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: 'test-results/e2e-screenshots/traces-trace-id-1024.png' });
    await others.getByRole('button', { name: /ship/ }).click();
    await expect(detail.getByRole('heading', { level: 3 })).toContainText('ship');
    await expect(detail.locator('.trace-id')).toHaveText(CALLER_TRACE);
    await expect(detail.getByLabel('Other runs of this trace')).toContainText('checkout');
    expect(errors).toEqual([]);
  });
});
