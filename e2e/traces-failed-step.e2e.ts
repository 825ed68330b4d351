import { expect, test } from './studio-fixture.ts';
import { openStudio, writeIntegration } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

// The second set reads body.totals, which this order lacks, so it fails at run time.
const AVERAGE = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  average:
    source: {type: http, path: /average, methods: [POST]}
    steps:
      - name: count items
        set: {vars: {count: size(body.items), customer: body.customer}}
      - name: average price
        set: {vars: {average: body.totals.sum / vars.count}}
      - set: {body: '{"average": vars.average}'}
`;

test.describe('a failed step in a trace', () => {
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-failing', { 'average.yaml': AVERAGE }));

  test('its Changes tab shows the failure and the message the step was given, not every variable removed', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-failing' });
    await card.getByRole('button', { name: 'Run e2e-failing' }).click();
    await expect(card.getByRole('status', { name: 'e2e-failing is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!;
    await page.getByRole('tab', { name: 'Traces' }).click();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer: 'ana', total: 10, items: [] }) });
    expect(res.status).toBeGreaterThanOrEqual(500);

    const row = page.locator('.trace-row[data-flow="average"][data-kind="run"]').first();
    await expect(row).toBeVisible({ timeout: 5_000 });
    const clicked = Date.now();
    await row.click();
    const steps = page.getByRole('list', { name: 'Steps' });
    await expect(steps.locator('[data-block="set"]').first()).toBeVisible();
    console.log(`click → trace open: ${Date.now() - clicked} ms`);

    await steps.locator('[data-block="set"]').filter({ hasText: 'average price' }).click();
    const changes = page.getByLabel('Changes by this step');
    await expect(changes).toContainText('The step failed');
    await expect(changes.getByRole('tree', { name: 'vars given to the failed step' })).toContainText('"ana"');
    await expect(changes.getByRole('tree', { name: 'vars given to the failed step' })).toContainText('count');
    await expect(changes).not.toContainText('removed');
    await screenshotsAtBothSizes(page, 'traces-failed-step-changes');
    await page.getByRole('tab', { name: 'After' }).click();
    await expect(page.getByText('The step failed; there is no message after it.')).toBeVisible();


    // The Live view has the Runs filters, and a click on one of its rows opens that run.
    await page.getByRole('tab', { name: 'Live' }).click();
    const live = page.getByRole('table', { name: 'Traces' });
    await page.getByRole('combobox', { name: 'Outcome' }).selectOption('failed');
    await page.getByRole('searchbox', { name: 'Search runs' }).fill('average price');
    const liveRows = live.locator('.trace-row[data-flow="average"]');
    await expect(liveRows).toHaveCount(1);
    await expect(liveRows).toContainText('average price');
    await page.getByRole('searchbox', { name: 'Search runs' }).fill('');
    await live.locator('.trace-row[data-kind="live-run"][data-flow="average"]').click();
    await expect(page.getByRole('tab', { name: 'Runs' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('list', { name: 'Steps' }).locator('[data-block="set"]').first()).toBeVisible();
    await page.getByRole('combobox', { name: 'Outcome' }).selectOption('');

    await page.getByRole('tab', { name: 'Flows' }).click();
    await card.getByRole('button', { name: 'Stop e2e-failing' }).click();
    health.expectNone();
  });
});
