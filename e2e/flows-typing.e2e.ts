import { availableParallelism, loadavg } from 'node:os';
import { expect, test } from './studio-fixture.ts';
import { bigDefinition, openFile, openStudio, writeIntegration } from './flows-helpers.ts';


test('a 2,000-line definition stays interactive: typing latency p95 under 50 ms', async ({ page, studio }) => {
  const text = bigDefinition(80);
  expect(text.split('\n').length).toBeGreaterThanOrEqual(2_000);
  writeIntegration(studio.workspaceDir, 'e2e-big', { 'big.yaml': text });
  await openStudio(page, studio.url);
  const opened = Date.now();
  await openFile(page, 'e2e-big', 'big.yaml');
  await expect(page.getByText('No problems: e2e-big loads as written.')).toBeVisible({ timeout: 10_000 });
  const openMs = Date.now() - opened;

  // Latency of a keystroke: from the key event's timestamp (queueing included) to the frame after it.
  await page.evaluate(() => {
    const w = window as unknown as { keyLatencies: number[] };
    w.keyLatencies = [];
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
  // In the middle of the file, reached through the graph: flow-40's filter condition (CEL, with
  // completion), then its description.
  await page.getByLabel('Flow shown in the graph').selectOption('flow-40');
  const graph = page.getByRole('region', { name: 'Flow graph of flow-40' });
  await graph.getByRole('button', { name: /^require items \(filter\)/ }).click();
  // The node selected its step; from the step's first line (name:) down to condition:.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  // Typed at a person's pace with pauses, so validation, the outline and markers land mid-typing:
  // the pauses are the person, not a wait for the page.
  const chunks = [' && body.items', '[0].price > 1', ' && vars.kind', ' != "c"'];
  for (const chunk of chunks) {
    await page.keyboard.type(chunk, { delay: 60 });
    await page.waitForTimeout(250);
  }
  await graph.getByRole('button', { name: /^source of flow-40/ }).click();
  // The source line is selected; the description is the line above it.
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
  const latencies = await page.evaluate(() => (window as unknown as { keyLatencies: number[] }).keyLatencies);
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)];
  const p50 = sorted[Math.floor(sorted.length * 0.5)];
  console.log(`typing latency over ${sorted.length} keystrokes: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; file opened and checked in ${openMs} ms`);
  expect(sorted.length).toBeGreaterThan(80);
  // 50 ms on a machine to itself; when other work queues for the cores, every keystroke waits
  // behind it, so the budget grows with the run-queue per core rather than failing on load alone.
  const contention = Math.max(1, loadavg()[0] / availableParallelism());
  expect(p95).toBeLessThan(50 * contention);
  // The checks kept up: the edit is valid CEL, and the loader still finds nothing wrong.
  await expect(page.getByText('No problems: e2e-big loads as written.')).toBeVisible();
});
