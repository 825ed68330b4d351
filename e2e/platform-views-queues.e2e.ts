import type { Page } from '@playwright/test';
import { call, openStudio, runIntegration } from './platform-views-support.ts';
import { expect, test } from './studio-fixture.ts';

// A worker whose first delivery of a message with "fail" fails (a CEL division by zero), so the
// message is nacked, comes again after 2 s, and then completes.
const WORKER = `
flows:
  work:
    source: {type: queue, subject: jobs, nackDelay: 2s}
    steps:
      - set:
          vars:
            attempt: 'has(body.fail) && vars.deliveryCount < 2 ? 1 / 0 : vars.deliveryCount'
`;

async function openQueues(page: Page, url: string): Promise<void> {
  await openStudio(page, url);
  await page.getByRole('tab', { name: 'Queues & Topics' }).click();
  await page.getByRole('button', { name: 'jobs · jobs-worker' }).click();
}

async function publishFromPanel(page: Page, body: string): Promise<string> {
  await page.getByRole('button', { name: 'Publish test message' }).click();
  const form = page.getByRole('form', { name: 'Publish a test message' });
  await form.getByLabel('Body (JSON)').fill(body);
  await form.getByRole('button', { name: 'Publish' }).click();
  const status = form.getByRole('status');
  await expect(status).toContainText('Published 1 message to jobs-worker');
  return /correlation id (\S+)/.exec((await status.textContent()) ?? '')![1];
}

const counter = (page: Page, name: string) => page.locator(`[data-counter="${name}"]`);
/** Timeline rows of one action, of the message published with this correlation id (or of none). */
const row = (page: Page, action: string, correlationId?: string) =>
  page.getByRole('table', { name: 'Queue timeline' }).locator(`.pv-event[data-action="${action}"]${correlationId ? `[data-correlation="${correlationId}"]` : ''}`);

interface GroupStats {
  subject: string;
  group: string;
  published: number;
  delivered: number;
  redelivered: number;
  acked: number;
  nacked: number;
}
let baseline: GroupStats;

test.describe('the Queues & Topics panel', () => {
  test.beforeEach(async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await runIntegration(page, studio.origin, 'jobs-worker', WORKER);
    await call(page, studio.origin, 'purgeQueue', 'jobs');
    const view = await call<{ groups: GroupStats[] }>(page, studio.origin, 'queueView', {});
    baseline = view.groups.find((g) => g.subject === 'jobs' && g.group === 'jobs-worker') ?? { subject: 'jobs', group: 'jobs-worker', published: 0, delivered: 0, redelivered: 0, acked: 0, nacked: 0 };
  });

  test('shows a failing message delivered, nacked with its delay and redelivered after it, in the timeline and the counters', async ({ page, studio }) => {
    await openQueues(page, studio.url);
    const id = await publishFromPanel(page, '{"fail": true, "order": 7}');

    await expect(row(page, 'ack', id)).toHaveCount(1, { timeout: 10_000 });
    await expect(row(page, 'deliver', id)).toContainText('delivery #1');
    await expect(row(page, 'nack', id)).toContainText('failed · comes again in 2 s');
    await expect(row(page, 'redeliver', id)).toContainText('delivery #2 · after nack delay');
    await expect(row(page, 'deliver', id).getByRole('button', { name: /^Open run .* of flow work \(failed\)$/ })).toBeVisible();
    await expect(row(page, 'redeliver', id).getByRole('button', { name: /^Open run .* of flow work \(completed\)$/ })).toBeVisible();
    const actions = await page
      .getByRole('table', { name: 'Queue timeline' })
      .locator(`.pv-event[data-correlation="${id}"]`)
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    expect(actions).toEqual(['publish', 'deliver', 'nack', 'redeliver', 'ack']);

    // The delay shows in the times too: the redelivery came 2 s after the nack.
    const view = await call<{ timeline: Array<{ action: string; at: number }> }>(page, studio.origin, 'queueView', { subject: 'jobs' });
    const at = (action: string) => view.timeline.findLast((e) => e.action === action)!.at;
    expect(at('redeliver') - at('nack')).toBeGreaterThanOrEqual(1_900);

    // Counters since the studio started: the test before may have sent messages too.
    const before = { ...baseline };
    const expected = { published: before.published + 1, delivered: before.delivered + 1, redelivered: before.redelivered + 1, nacked: before.nacked + 1, acked: before.acked + 1 };
    for (const [name, value] of Object.entries({ ...expected, waiting: 0, inFlight: 0, delayed: 0 })) {
      await expect(counter(page, name), name).toHaveText(String(value));
    }

    await page.screenshot({ path: 'test-results/e2e-screenshots/platform-queues-live.png' });

    // Back to the moment of the nack: the message is waiting out its delay, not redelivered yet.
    await row(page, 'nack', id).getByRole('button', { name: /^Show the platform as it was at/ }).click();
    await expect(page.getByRole('button', { name: '● Live' })).toHaveAttribute('aria-pressed', 'false');
    await expect(counter(page, 'redelivered')).toHaveText(String(before.redelivered));
    await expect(counter(page, 'delayed')).toHaveText('1');
    await expect(counter(page, 'nacked')).toHaveText(String(expected.nacked));
    await expect(row(page, 'ack', id)).toHaveCount(0);
    await page.screenshot({ path: 'test-results/e2e-screenshots/platform-queues-rewound.png' });
    await expect(page.getByRole('status', { name: 'View state' })).toHaveText('Paused in the past');
    // Looking back at the queue freezes no other view: Storage and the Topics tab stay live.
    await page.getByRole('tab', { name: 'Storage' }).click();
    await expect(page.getByRole('status', { name: 'View state' })).toHaveText('Live');
    await expect(page.getByRole('button', { name: '● Live' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('tab', { name: 'Queues & Topics' }).click();
    const queuesOrTopics = page.getByRole('tablist', { name: 'Queues or topics' });
    await queuesOrTopics.getByRole('tab', { name: 'Topics' }).click();
    await expect(page.getByRole('status', { name: 'View state' })).toHaveText('Live');
    await queuesOrTopics.getByRole('tab', { name: 'Queues' }).click();
    await expect(page.getByRole('status', { name: 'View state' })).toHaveText('Paused in the past');
    await expect(counter(page, 'delayed')).toHaveText('1');
    await page.getByRole('button', { name: '● Live' }).click();
    await expect(page.getByRole('status', { name: 'View state' })).toHaveText('Live');
    await expect(counter(page, 'acked')).toHaveText(String(expected.acked));
  });

  test('publishes a test message that the running flow consumes, linked to its run', async ({ page, studio }) => {
    await openQueues(page, studio.url);
    const correlationId = await publishFromPanel(page, '{"hello": "world"}');
    const ack = row(page, 'ack', correlationId);
    await expect(ack).toHaveCount(1, { timeout: 10_000 });
    await expect(ack.locator('.pv-tag')).toHaveCount(0);
    await expect(row(page, 'publish', correlationId).locator('.pv-tag')).toHaveText('studio');

    // The message's detail names the run that consumed it.
    await ack.click();
    await page.screenshot({ path: 'test-results/e2e-screenshots/platform-queues-message.png' });
    const detail = page.getByRole('region', { name: /^Message / });
    await expect(detail).toContainText(`Correlation id ${correlationId}`);
    const runLink = detail.getByRole('group', { name: 'Runs of this message' }).getByRole('button', { name: /of flow work \(completed\)/ });
    await expect(runLink).toBeVisible();
    const runId = /Open run (\S+) of flow/.exec((await runLink.getAttribute('aria-label'))!)![1];

    await runLink.click();
    await expect(page.getByRole('heading', { level: 2, name: 'Traces' })).toBeVisible();
    await expect(page.getByRole('region', { name: `Run ${runId}` })).toBeVisible();
  });

  test('peeks at stored messages and purges them after confirmation', async ({ page, studio }) => {
    await call(page, studio.origin, 'stopIntegration', 'jobs-worker');
    await openQueues(page, studio.url);
    await call(page, studio.origin, 'publishQueueMessage', { subject: 'jobs', body: { n: 1 }, count: 3 });
    await expect(counter(page, 'waiting')).toHaveText('3');
    await page.getByRole('button', { name: 'Peek stored messages' }).click();
    await expect(page.locator('.pv-peek li[data-state="waiting"]')).toHaveCount(3);

    await page.getByRole('button', { name: 'Purge…' }).click();
    await page.getByRole('group', { name: /^Delete every stored message of jobs · jobs-worker\?$/ }).getByRole('button', { name: 'Purge' }).click();
    await expect(page.getByText('Purged 3 messages.')).toBeVisible();
    await expect(counter(page, 'waiting')).toHaveText('0');
    await expect(row(page, 'purge').last()).toContainText('3 messages removed from jobs-worker');
  });

  test('peeks at the messages of a subject that no consumer group has received yet', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'purgeQueue', 'unclaimed-parcels');
    await call(page, studio.origin, 'publishQueueMessage', { subject: 'unclaimed-parcels', body: { parcel: 'P-7' }, count: 2 });
    await page.getByRole('tab', { name: 'Queues & Topics' }).click();
    await page.getByRole('button', { name: 'unclaimed-parcels · (no group yet)' }).click();
    await expect(counter(page, 'waiting')).toHaveText('2');

    await page.getByRole('button', { name: 'Peek stored messages' }).click();
    const peek = page.getByLabel('Messages stored for no group yet');
    await expect(peek.locator('li[data-state="waiting"]')).toHaveCount(2);
    await expect(peek).not.toContainText('every message was acked');
  });

  test('shows a topic subscription with its cursor and lag, delivers a test message to it, and deletes it', async ({ page, studio }) => {
    await runIntegration(
      page,
      studio.origin,
      'price-watch',
      `
flows:
  listen:
    source: {type: topic, subject: prices, system: true}
    steps:
      - set: {vars: {seen: body}}
`,
    );
    await openStudio(page, studio.url);
    await page.getByRole('tab', { name: 'Queues & Topics' }).click();
    await page.getByRole('tab', { name: 'Topics', exact: true }).click();
    await page.getByRole('table', { name: 'Topic streams' }).getByRole('button', { name: /^prices system/ }).click();
    const subscriptions = page.getByRole('table', { name: 'Subscriptions' }).locator('tbody tr');
    await expect(subscriptions).toHaveCount(1);
    const id = await subscriptions.first().getAttribute('data-subscription');

    await page.getByRole('button', { name: 'Publish test message' }).click();
    const form = page.getByRole('form', { name: 'Publish a test message to a topic' });
    await form.getByLabel('Body (JSON)').fill('{"sku": "A-1", "price": 12.5}');
    await form.getByRole('button', { name: 'Publish' }).click();
    const correlationId = /correlation id (\S+)/.exec((await form.getByRole('status').textContent()) ?? '')![1];
    const timeline = page.getByRole('table', { name: 'Topic timeline' });
    await expect(timeline.locator(`.pv-event[data-action="publish"][data-correlation="${correlationId}"]`)).toContainText('"sku": "A-1"');
    await expect(timeline.locator(`.pv-event[data-action="deliver"][data-correlation="${correlationId}"]`).getByRole('button', { name: /of flow listen \(completed\)/ })).toBeVisible();
    await expect(timeline.locator('.pv-event[data-action="ack"]').last()).toBeVisible();
    const row = page.getByRole('table', { name: 'Subscriptions' }).locator(`tr[data-subscription="${id}"]`);
    await expect(row.locator('td').nth(2)).toHaveText('0');

    await row.getByRole('button', { name: 'Delete…' }).click();
    await row.getByRole('group').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Subscription deleted.')).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(timeline.locator(`.pv-event[data-action="unsubscribe"][data-subscription="${id}"]`)).toHaveCount(1);
  });
});
