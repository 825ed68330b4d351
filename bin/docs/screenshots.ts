/**
 * `npm run docs:screenshots`: every picture in the docs, taken from the studio as it is now.
 *
 * `flow-studio serve` starts as a newcomer's would (a fresh home, the samples as its workspace),
 * and headless Chromium drives it in the light theme at 1440×900 through the steps of
 * docs/tutorial.md, the README's tour, the graph's settings form (docs/flows.md) and a paused run
 * (docs/debugging.md), writing docs/img/<name>.webp. WebP is Chromium's own
 * encoder (the DevTools protocol's screenshot format), so no image package is needed and a
 * picture of the studio stays around 30–90 KB where a PNG of it is 200–400 KB.
 *
 * Usage: npm run docs:screenshots [-- --only hero,tour-trace]   (CHROMIUM_PATH picks the browser;
 *        DOCS_SCREENSHOTS_PREVIEW=<dir> writes a PNG of each there too, to look at)
 */
import { chromium, expect, type Page } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../../src-main/studio/web/renderer-build.ts';
import { startStudioSession, type StudioSession } from './studio-session.ts';
import { BAD_TOKEN, DELIVERY_ID, FIXTURE, RIGHT_SECRET, SAMPLE_TOKEN, TEST_NAME, WEBHOOK_BODY } from './tutorial-webhook.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const imgDir = join(root, 'docs', 'img');
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? new Set(process.argv[i + 1].split(',')) : undefined;
})();
/** WebP quality: text stays crisp at 80; at 100 the files triple for no visible gain. */
const QUALITY = 80;

interface RouteState {
  status: string;
  routes: Array<{ url: string; path: string; flow: string }>;
}

async function shoot(page: Page, name: string): Promise<void> {
  if (only && !only.has(name)) return;
  // The page at rest: no caret blinking mid-frame, no hover left over from the last click.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  const cdp = await page.context().newCDPSession(page);
  const shot = (await cdp.send('Page.captureScreenshot', { format: 'webp', quality: QUALITY })) as { data: string };
  // A PNG beside it for viewers that cannot open WebP, when asked (DOCS_SCREENSHOTS_PREVIEW=<dir>).
  const preview = process.env.DOCS_SCREENSHOTS_PREVIEW;
  if (preview) {
    const png = (await cdp.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
    mkdirSync(preview, { recursive: true });
    writeFileSync(join(preview, `${name}.png`), Buffer.from(png.data, 'base64'));
  }
  await cdp.detach();
  const bytes = Buffer.from(shot.data, 'base64');
  writeFileSync(join(imgDir, `${name}.webp`), bytes);
  console.log(`docs/img/${name}.webp  ${(bytes.length / 1024).toFixed(0)} KB`);
}

async function openRun(page: Page, runId: string): Promise<void> {
  await page.getByRole('tab', { name: 'Traces' }).click();
  await page.getByRole('textbox', { name: 'Search runs' }).or(page.getByRole('searchbox', { name: 'Search runs' })).fill(runId);
  await page.getByRole('table', { name: 'Runs' }).locator(`[data-run="${runId}"]`).click();
  await expect(page.getByRole('region', { name: `Run ${runId}` }).or(page.getByLabel(`Run ${runId}`))).toBeVisible();
}

async function latestRun(s: StudioSession, flow: string, outcome?: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      const page = await s.call<{ rows: Array<{ runId: string; flow: string; outcome: string }> }>('queryRuns', { offset: 0, limit: 50 });
      found = page.rows.find((r) => r.flow === flow && (outcome === undefined || r.outcome === outcome))?.runId;
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

/** docs/tutorial.md, step by step, and the README's picture of a webhook being debugged. */
async function tutorial(page: Page, s: StudioSession): Promise<void> {
  await page.getByRole('tab', { name: 'Flows' }).click();
  const card = page.getByRole('listitem', { name: 'webhook-receiver' });
  await expect(card).toBeVisible();
  // The first start opens a sample's definition: shown once the editor has read it.
  await expect(page.locator('.flow-editor .view-lines')).toContainText(/\S/, { timeout: 20_000 });
  await card.scrollIntoViewIfNeeded();
  await shoot(page, 'tutorial-1-studio');

  await card.getByRole('button', { name: 'Run webhook-receiver' }).click();
  await card.getByRole('button', { name: /^webhook\.yaml/ }).click();
  await expect(page.locator('.flow-editor .view-lines')).toContainText('receive-webhook', { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Flow graph of receive-webhook' })).toBeVisible();
  const state = (await s.call<RouteState[]>('runStates')).find((r) => r.routes.some((x) => x.flow === 'receive-webhook'));
  if (state?.status !== 'running') throw new Error(`webhook-receiver is not running: ${JSON.stringify(state)}`);
  await shoot(page, 'tutorial-2-running');

  // The sender's curl, signed with last year's secret.
  const url = state.routes[0].url.replace('{sender}', 'billing');
  const refused = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${BAD_TOKEN}`, 'x-event-type': 'invoice.paid', 'x-delivery-id': DELIVERY_ID, 'content-type': 'application/json' },
    body: WEBHOOK_BODY,
  });
  if (refused.status !== 401) throw new Error(`the badly signed webhook was answered ${refused.status}, not 401`);
  const rejected = await latestRun(s, 'receive-webhook', 'rejected');
  await page.getByRole('tab', { name: 'Traces' }).click();
  await expect(page.getByRole('table', { name: 'Runs' }).locator(`[data-run="${rejected}"]`)).toBeVisible();
  await openRun(page, rejected);
  await expect(page.getByRole('alert', { name: 'Verification failed' })).toBeVisible();
  await shoot(page, 'tutorial-3-rejected');
  await shoot(page, 'hero');

  // Fix the secret: the captured request, edited, signed again with the secret the flow checks.
  await page.getByRole('tab', { name: 'Requests' }).click();
  await page.getByRole('tab', { name: 'Captures' }).click();
  await page.getByRole('list', { name: 'Captured requests' }).getByRole('button').first().click();
  await page.getByRole('button', { name: 'Edit and replay…' }).click();
  await expect(page.getByRole('textbox', { name: 'Path parameter sender' })).toHaveValue('billing');
  const parts = page.getByRole('tablist', { name: 'Request parts' });
  await parts.getByRole('tab', { name: 'Sign / JWT' }).click();
  const helper = page.getByRole('group', { name: 'Signing helper' });
  await helper.getByRole('textbox', { name: 'JWT claims' }).fill('{\n  "sub": "billing",\n  "iss": "webhook-sender"\n}');
  await helper.getByLabel('Signing secret').fill(RIGHT_SECRET);
  await helper.getByRole('button', { name: 'Mint into Authorization' }).click();
  await shoot(page, 'tutorial-4-fix');

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByLabel('Response status')).toHaveText('202');
  await shoot(page, 'tutorial-5-replayed');

  const accepted = await latestRun(s, 'receive-webhook', 'completed');
  await openRun(page, accepted);
  await page.getByRole('button', { name: 'Save as test…' }).click();
  const form = page.getByRole('form', { name: 'Save run as test' });
  await form.getByRole('textbox', { name: 'Test name' }).fill(TEST_NAME);
  await form.getByRole('button', { name: 'Save test' }).click();
  await expect(form.getByRole('status')).toContainText('Saved');
  await shoot(page, 'tutorial-6-saved');

  // The fixture keeps no credentials: the tutorial's sed gives it the sample's development token.
  const fixture = join(s.workspace, 'webhook-receiver', FIXTURE);
  const redacted = readFileSync(fixture, 'utf8');
  if (!redacted.includes('<redacted>')) throw new Error(`${FIXTURE} has no <redacted> credential to replace:\n${redacted}`);
  writeFileSync(fixture, redacted.replaceAll('<redacted>', `Bearer ${SAMPLE_TOKEN}`));

  await form.getByRole('button', { name: 'Open Tests' }).click();
  await page.getByRole('button', { name: 'Run all' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'passed' })).toContainText(' 0 failed', { timeout: 90_000 });
  await shoot(page, 'tutorial-7-tests');
}

/** The README's tour: a request and its trace's waterfall, and queues and KV tied to the runs. */
async function tour(page: Page, s: StudioSession): Promise<void> {
  await page.getByRole('tab', { name: 'Flows' }).click();
  const card = page.getByRole('listitem', { name: 'queue-worker' });
  await card.getByRole('button', { name: 'Run queue-worker' }).click();
  await card.getByRole('button', { name: /^queue-worker\.yaml/ }).click();
  await expect(page.locator('.flow-editor .view-lines')).toContainText('schedule-reports', { timeout: 20_000 });
  // The worker flow: a lock around a KV read and write, then a template.
  await page.getByRole('combobox', { name: 'Flow shown in the graph' }).selectOption('work');
  await expect(page.getByRole('region', { name: 'Flow graph of work' })).toBeVisible();
  await shoot(page, 'tour-edit-graph');

  // A request from the composer, then its run: the steps and calls as a waterfall.
  const orders = page.getByRole('listitem', { name: 'orders-api' });
  await orders.getByRole('button', { name: 'Run orders-api' }).click();
  await page.getByRole('tab', { name: 'Requests' }).click();
  await page.getByRole('tab', { name: 'Routes' }).click();
  await page.getByRole('button', { name: 'New request to /orders/price of orders-api' }).click();
  const editor = page.getByTestId('body-editor');
  await expect(editor.locator('.view-lines')).toBeVisible({ timeout: 20_000 });
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('{"customer": "ana", "items": [{"price": 2.5, "quantity": 4}, {"price": 12, "quantity": 1}]}');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByLabel('Response status')).toHaveText('200');
  // The run list shows every run again (the tutorial left a search in it).
  await page.getByRole('tab', { name: 'Traces' }).click();
  await page.getByRole('textbox', { name: 'Search runs' }).or(page.getByRole('searchbox', { name: 'Search runs' })).fill('');
  await page.getByRole('tab', { name: 'Requests' }).click();
  await page.getByRole('button', { name: /^Open run / }).click();
  const steps = page.getByRole('list', { name: 'Steps' });
  await expect(steps.locator('.waterfall-bar').first()).toBeVisible();
  await steps.locator('[data-block="set"]').filter({ hasText: 'line totals' }).click();
  await expect(page.getByLabel('Changes by this step')).toBeVisible();
  await shoot(page, 'tour-trace');

  // The queue the worker's jobs go through, and the KV entry they count in, each with its runs.
  // A few jobs' worth (one every 5 s) so the traffic list reads as traffic.
  await expect
    .poll(async () => (await s.call<{ rows: Array<{ flow: string }> }>('queryRuns', { offset: 0, limit: 200 })).rows.filter((r) => r.flow === 'work').length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(3);
  await page.getByRole('tab', { name: 'Queues & Topics' }).click();
  await page.getByText('report-jobs').first().click();
  await expect(page.getByText('delivery #1').first()).toBeVisible();
  await shoot(page, 'tour-queues');
}

/**
 * docs/flows.md's graph editing and docs/debugging.md's pause, on orders-api (the tour started it):
 * a step selected with its settings form, then a request paused before that step, with the
 * message, the stack and an expression evaluated in the run.
 */
async function debugging(page: Page, s: StudioSession): Promise<void> {
  await page.getByRole('tab', { name: 'Flows' }).click();
  const card = page.getByRole('listitem', { name: 'orders-api' });
  await card.getByRole('button', { name: /^orders\.yaml/ }).click();
  await expect(page.locator('.flow-editor .view-lines')).toContainText('price-order', { timeout: 20_000 });
  const graph = page.getByRole('region', { name: 'Flow graph of price-order' });
  await expect(graph).toBeVisible();
  await graph.getByRole('button', { name: /^line totals \(set\)/ }).click();
  await expect(page.getByRole('region', { name: 'Settings of set (line totals)' })).toBeVisible();
  await shoot(page, 'graph-settings');

  // A breakpoint on the step that answers, only for bob's orders: ana's go through meanwhile.
  const toggle = graph.getByRole('button', { name: 'Breakpoint on set' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('tab', { name: 'Debugger' }).click();
  const bp = page.getByRole('list', { name: 'Breakpoints' }).getByRole('listitem').filter({ hasText: 'flows.price-order.steps[2]' });
  const condition = bp.getByPlaceholder('body.customer == "bob"');
  await condition.fill('body.customer == "bob"');
  await condition.press('Enter');
  await expect(bp).toHaveAttribute('data-condition', 'body.customer == "bob"');

  const state = (await s.call<RouteState[]>('runStates')).find((r) => r.routes.some((x) => x.flow === 'price-order'));
  const route = state?.routes.find((r) => r.flow === 'price-order');
  if (state?.status !== 'running' || !route) throw new Error(`orders-api is not running: ${JSON.stringify(state)}`);
  const order = (customer: string): Promise<Response> =>
    fetch(route.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer, items: [{ price: 2.5, quantity: 4 }, { price: 12, quantity: 1 }] }) });
  const bob = order('bob');
  const paused = page.getByRole('list', { name: 'Paused runs' }).getByRole('listitem');
  await expect(paused).toHaveCount(1, { timeout: 15_000 });
  const ana = await order('ana');
  if (ana.status !== 200) throw new Error(`ana's order was answered ${ana.status} while bob's was paused`);
  await page.getByLabel('CEL expression to evaluate').fill('vars.lines.map(t, t * 2)');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(page.getByRole('tree', { name: 'value of vars.lines.map(t, t * 2)' })).toBeVisible();
  await shoot(page, 'debug-paused');

  await page.getByRole('button', { name: 'Continue' }).click();
  const answered = await bob;
  if (answered.status !== 200) throw new Error(`bob's order was answered ${answered.status} after Continue`);
  await expect(paused).toHaveCount(0);
}

async function main(): Promise<void> {
  mkdirSync(imgDir, { recursive: true });
  await ensureRendererBuilt(root, (line) => console.log(line));
  const session = await startStudioSession();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-color-profile=srgb'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' });
    // The light theme whatever the studio remembered; the studio reads its choice from localStorage.
    await context.addInitScript(() => localStorage.setItem('flow-studio.theme', 'light'));
    const page = await context.newPage();
    await page.goto(session.url);
    await expect(page.getByRole('tablist', { name: 'Panels' })).toBeVisible();
    await tutorial(page, session);
    await tour(page, session);
    await debugging(page, session);
  } finally {
    await browser.close();
    await session.stop();
  }
}

await main();
