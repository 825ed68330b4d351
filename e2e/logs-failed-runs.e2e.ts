import { expect, test } from './studio-fixture.ts';
import { openStudio, writeIntegration } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';
import { call } from './requests-helpers.ts';

// Both flows fail at a template the integration lacks; a failed job comes back only after an
// hour, so the queue flow runs once.
const JOBS = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  price:
    source: {type: http, path: /price, methods: [POST]}
    steps:
      - set: {vars: {count: body.count}}
      - template: {name: missing.txt}
  work:
    source: {type: queue, subject: e2e-report-jobs, nackDelay: 1h}
    steps:
      - template: {name: missing.txt}
`;

// A route that fails every request, hammered as a load tool would.
const FLOOD = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  surge:
    source: {type: http, path: /surge, methods: [POST]}
    steps:
      - template: {name: missing.txt}
`;

test.describe('Logs, runs that fail', () => {
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-jobs-that-fail', { 'jobs.yaml': JOBS }));
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-flood-of-failures', { 'flood.yaml': FLOOD }));

  test('an HTTP run and a queue run that fail are one error line each, the error first, where it failed on hover', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-jobs-that-fail' });
    await card.getByRole('button', { name: 'Run e2e-jobs-that-fail' }).click();
    await expect(card.getByRole('status', { name: 'e2e-jobs-that-fail is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"count": 3}' });
    expect(res.status).toBe(500);
    const published = await page.request.post(`${studio.origin}/api/call/publishQueueMessage`, { data: { args: [{ subject: 'e2e-report-jobs', body: { report: 'daily' } }] } });
    expect(published.ok()).toBe(true);

    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('searchbox', { name: 'Search logs' }).fill('e2e-jobs-that-fail');
    await page.getByRole('combobox', { name: 'Level' }).selectOption('warn');
    const rows = page.locator('.log-row');
    const error = 'run failed: template resource "missing.txt" does not exist';
    await expect(rows.locator('.cell.msg[title*="flows.work.steps[0]"]')).toHaveCount(1, { timeout: 10_000 });
    // The queue message was nacked (the platform's line); a runtime line of its own would have come before.
    await page.getByRole('combobox', { name: 'Level' }).selectOption('debug');
    await expect(rows.filter({ hasText: 'queue nack e2e-report-jobs' })).toHaveCount(1, { timeout: 10_000 });
    await page.getByRole('combobox', { name: 'Level' }).selectOption('warn');
    await expect(rows).toHaveCount(2);
    const titles = await rows.locator('.cell.msg').evaluateAll((cells) => cells.map((c) => c.getAttribute('title')));
    expect(titles).toEqual([expect.stringMatching(/ — at flows\.price\.steps\[1\] \(template\)$/), expect.stringMatching(/ — at flows\.work\.steps\[0\] \(template\), delivery 1$/)]);
    for (const t of titles) expect(t!.startsWith(error)).toBe(true);
    await expect(rows.locator('.level')).toHaveText(['error', 'error']);
    await screenshotsAtBothSizes(page, 'logs-failed-runs');
    health.expectNone();
  });

  test('a flood of one failure is one error line, and one summary of the rest when the integration stops', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-flood-of-failures' });
    await card.getByRole('button', { name: 'Run e2e-flood-of-failures' }).click();
    await expect(card.getByRole('status', { name: 'e2e-flood-of-failures is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!;
    for (let i = 0; i < 12; i++) expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(500);
    // Every run is in Traces before the integration stops.
    const failedRuns = async () => (await call<{ total: number }>(page, studio.origin, 'queryRuns', { offset: 0, limit: 1, flow: 'surge', outcome: 'failed' })).total;
    await expect.poll(failedRuns).toBe(12);

    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('searchbox', { name: 'Search logs' }).fill('e2e-flood-of-failures');
    await page.getByRole('combobox', { name: 'Level' }).selectOption('warn');
    const rows = page.locator('.log-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.locator('.cell.msg')).toHaveAttribute('title', /^run failed: template resource "missing.txt" does not exist.* — at flows\.surge\.steps\[0\] \(template\)$/);

    // Stopping ends the minute: the rest are one line, pointing to Traces and to the newest of them.
    await call(page, studio.origin, 'stopIntegration', 'e2e-flood-of-failures');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1).locator('.cell.msg')).toHaveAttribute('title', /^11 more failed runs were not logged one by one in the last \d+s — see them all in Traces \(flow surge, outcome failed\)$/);
    await expect(rows.locator('.level')).toHaveText(['error', 'error']);
    await expect(rows.nth(1).locator('.run-link')).toBeVisible();
    await screenshotsAtBothSizes(page, 'logs-failed-runs-flood');
    health.expectNone();
  });
});
