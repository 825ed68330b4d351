import type { Locator, Page } from '@playwright/test';
import { availableParallelism, loadavg } from 'node:os';
import { expect, test } from './studio-fixture.ts';
import { bigDefinition, openFile, openStudio, writeIntegration } from './flows-helpers.ts';

/**
 * Opens the integration's big.yaml and puts the cursor at the end of `flow`'s filter condition,
 * reached through the graph; returns the graph.
 */
async function toFilterCondition(page: Page, integration: string, flow: string): Promise<Locator> {
  await openFile(page, integration, 'big.yaml');
  await expect(page.getByText(`No problems: ${integration} loads as written.`)).toBeVisible({ timeout: 10_000 });
  await page.getByLabel('Flow shown in the graph').selectOption(flow);
  const graph = page.getByRole('region', { name: `Flow graph of ${flow}` });
  await graph.getByRole('button', { name: /^require items \(filter\)/ }).click();
  // The node selected its step; Enter goes to it in the text, from its first line (name:) down to condition:.
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  return graph;
}

/**
 * Types into one flow the way a person does, and returns each keystroke's latency: from the key
 * event's timestamp (queueing included) to the frame after it.
 */
async function typeIntoFlow(page: Page, integration: string, flow: string): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { keyLatencies: number[]; keyLatencyListening?: boolean };
    w.keyLatencies = [];
    if (w.keyLatencyListening) return;
    w.keyLatencyListening = true;
    document.addEventListener(
      'keydown',
      (e) => {
        // Characters only: the latency of typing, not of moving around.
        if (e.key.length !== 1) return;
        const start = e.timeStamp;
        requestAnimationFrame(() => setTimeout(() => w.keyLatencies.push(performance.now() - start), 0));
      },
      true,
    );
  });
  // The flow's filter condition (CEL, with completion), then its description (free text).
  const graph = await toFilterCondition(page, integration, flow);
  // Typed at a person's pace with pauses, so validation, the outline and markers land mid-typing:
  // the pauses are the person, not a wait for the page.
  const chunks = [' && body.items', '[0].price > 1', ' && vars.kind', ' != "c"'];
  for (const chunk of chunks) {
    await page.keyboard.type(chunk, { delay: 60 });
    await page.waitForTimeout(250);
  }
  await graph.getByRole('button', { name: new RegExp(`^source of ${flow}`) }).click();
  // The source line is selected (Enter goes to it); the description is the line above it.
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  const description = ' Edited while measuring, at a steady pace.';
  await page.keyboard.type(description, { delay: 35 });
  await expect(page.locator('.flow-editor .view-lines')).toContainText('Edited while measuring');
  await expect(page.locator('.flow-editor .view-lines')).toContainText('&& vars.kind != "c"');
  // Each keystroke's latency is recorded the frame after it: wait for the last one.
  const typed = chunks.join('').length + description.length;
  await expect.poll(() => page.evaluate(() => (window as unknown as { keyLatencies: number[] }).keyLatencies.length), { timeout: 10_000 }).toBe(typed);
  // The checks kept up: the edit is valid CEL, and the loader still finds nothing wrong.
  await expect(page.getByText(`No problems: ${integration} loads as written.`)).toBeVisible();
  return page.evaluate(() => (window as unknown as { keyLatencies: number[] }).keyLatencies);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * p)];
}

test("a 2,000-line definition stays interactive: typing latency p95 under 50 ms and within 15 ms of a small one's", async ({ page, studio }) => {
  const big = bigDefinition(80);
  expect(big.split('\n').length).toBeGreaterThanOrEqual(2_000);
  writeIntegration(studio.workspaceDir, 'e2e-big', { 'big.yaml': big });
  writeIntegration(studio.workspaceDir, 'e2e-small', { 'big.yaml': bigDefinition(4) });
  await openStudio(page, studio.url);

  // The same typing in a 100-line definition, in the same run, is the baseline: it is what the
  // browser, the editor and this machine cost at this moment, load included. The editor's first
  // keystrokes compile its code (~90 ms each); a first pass, not counted, pays that for both.
  await typeIntoFlow(page, 'e2e-small', 'flow-2');
  const small = await typeIntoFlow(page, 'e2e-small', 'flow-2');
  const large = await typeIntoFlow(page, 'e2e-big', 'flow-40');
  const report = (name: string, l: number[]): string =>
    `${name}: p50 ${percentile(l, 0.5).toFixed(1)} ms, p95 ${percentile(l, 0.95).toFixed(1)} ms, max ${Math.max(...l).toFixed(1)} ms`;
  console.log(`typing latency over ${large.length} keystrokes; ${report('100 lines', small)}; ${report('2,000 lines', large)}`);
  expect(large.length).toBeGreaterThan(80);
  // On this machine to itself, after the warm-up, both p95s are 26–34 ms. Work that grows with the
  // file shows as the difference: a whole-document schema completion on every space typed took
  // ~300 ms of a worker each and put the big file's p95 at 58–92 ms. When other work queues for
  // the cores, a p95 of ~90 keystrokes is the few that waited behind it, in either file: the
  // margin grows with the run-queue per core as the budget below does (beside a CPU burner the
  // big file's read 68 ms against the small one's 47, p50s 31 and 29).
  const contention = Math.max(1, loadavg()[0] / availableParallelism());
  expect(percentile(large, 0.95)).toBeLessThan(percentile(small, 0.95) + 15 * contention);
  // And the product's budget, 50 ms, on a machine to itself; when other work queues for the cores,
  // every keystroke waits behind it, so it grows with the run-queue per core.
  expect(percentile(large, 0.95)).toBeLessThan(50 * contention);
});

/**
 * From the keystroke that ends a word inside a CEL expression to the suggestion list showing
 * `body`. Monaco shows the list once every completion provider has answered.
 */
async function suggestionDelay(page: Page, integration: string, flow: string): Promise<number> {
  await toFilterCondition(page, integration, flow);
  await page.keyboard.type(' && b', { delay: 60 });
  // The list for `b` shown and closed again before `o` is timed: closed before it showed, it would
  // open late and `o` would only filter it (a loaded machine measured 24 ms that way).
  const rows = page.locator('.suggest-widget .monaco-list-row');
  await expect(rows.filter({ hasText: /^body/ }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(rows).toHaveCount(0);
  await page.evaluate(() => {
    const w = window as unknown as { typedAt: number };
    w.typedAt = 0;
    document.addEventListener('keydown', (e) => void (e.key === 'o' && (w.typedAt = e.timeStamp)), { capture: true, once: true });
  });
  await page.keyboard.type('o');
  // Looked for every frame from here: the list cannot show before the editor's 120 ms pause.
  const ms = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const w = window as unknown as { typedAt: number };
        // A list that never shows (it did not, while the schema completion was asked) is a failed
        // comparison below, not a timeout.
        setTimeout(() => resolve(Number.POSITIVE_INFINITY), 10_000);
        const look = (): void => {
          const rows = [...document.querySelectorAll('.suggest-widget .monaco-list-row')];
          if (w.typedAt && rows.some((r) => (r.textContent ?? '').startsWith('body'))) resolve(performance.now() - w.typedAt);
          else requestAnimationFrame(look);
        };
        look();
      }),
  );
  await page.keyboard.press('Escape');
  return ms;
}

test('suggestions inside a CEL expression of a 2,000-line definition come as fast as in a small one', async ({ page, studio }) => {
  writeIntegration(studio.workspaceDir, 'e2e-big', { 'big.yaml': bigDefinition(80) });
  writeIntegration(studio.workspaceDir, 'e2e-small', { 'big.yaml': bigDefinition(4) });
  await openStudio(page, studio.url);
  // Three times each, alternating: the first pass warms the editor up, and of the other two the
  // quicker counts. Load only ever adds to a delay; the fault this guards against (below) adds to
  // every one, so the quicker of two still shows it while one unlucky frame no longer fails the
  // test (a loaded CI run read 318 ms for the big file once, 153 ms the round before).
  const delays: Record<string, number[]> = { small: [], large: [] };
  for (let round = 0; round < 3; round++) {
    delays.small.push(await suggestionDelay(page, 'e2e-small', 'flow-2'));
    delays.large.push(await suggestionDelay(page, 'e2e-big', 'flow-40'));
  }
  console.log(`suggestions shown after: 100 lines ${delays.small.map((d) => d.toFixed(0)).join(', ')} ms; 2,000 lines ${delays.large.map((d) => d.toFixed(0)).join(', ')} ms`);
  const quicker = (ms: number[]): number => Math.min(...ms.slice(1));
  // Both wait out the editor's 120 ms pause before asking (150–210 ms here, either file). When the
  // schema's completion was asked as well, it validated the whole document (~300 ms of its worker
  // on 2,000 lines) and the list did not show at all in the big file. Work queued for the cores
  // delays both, as the typing test above allows for.
  const contention = Math.max(1, loadavg()[0] / availableParallelism());
  expect(quicker(delays.large)).toBeLessThan(quicker(delays.small) + 100 * contention);
});
