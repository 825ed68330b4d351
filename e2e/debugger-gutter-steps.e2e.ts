import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { cursorToLineEnd, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { clickGutter, GREET } from './debugger-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

// Line 7: the first step; 8–9: "answer", its name and its settings; 10: the switch.
const FLOW = `${GREET}      - switch:
          cases:
            - when: vars.greeting == "hello bob"
              steps:
                - log: {message: '"bob"'}
`;

/** The editor lines that show a breakpoint's dot (or, with `.flow-paused-glyph`, that a paused run waits at). */
async function glyphLines(page: Page, glyph = '.flow-bp-glyph'): Promise<number[]> {
  return page.evaluate((glyph) => {
    // Both sit in the editor's margin at the top of their line.
    const numbers = [...document.querySelectorAll<HTMLElement>('.flow-editor .line-numbers')].map((n) => ({ line: Number(n.textContent), top: n.parentElement!.style.top }));
    return [...document.querySelectorAll<HTMLElement>(`.flow-editor ${glyph}`)]
      .map((g) => numbers.find((n) => n.top === g.style.top)?.line ?? -1)
      .sort((a, b) => a - b);
  }, glyph);
}

test.describe('breakpoints set in the gutter go on the step clicked', () => {
  // The second test uses the breakpoints and the saved file the first one left.
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-gutter', { 'greet.yaml': FLOW }));

  test('a second click on a line of a step’s settings removes its breakpoint; with lines typed above and not saved, the click still sets it on the step shown there', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-gutter', 'greet.yaml');
    const graph = page.getByRole('region', { name: 'Flow graph of greet' });
    const bps = page.getByRole('list', { name: 'Breakpoints' }).getByRole('listitem');

    // The settings line of "answer", twice: on, then off again (it made a second breakpoint on the step).
    await clickGutter(page, 9);
    await expect.poll(() => glyphLines(page)).toEqual([8]);
    await expect(graph.getByRole('button', { name: 'Breakpoint on answer' })).toHaveAttribute('aria-pressed', 'true');
    await clickGutter(page, 9);
    await expect(graph.getByRole('button', { name: 'Breakpoint on answer' })).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => glyphLines(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Debugger' }).click();
    await expect(bps).toHaveCount(0);
    await page.getByRole('tab', { name: 'Flows' }).click();

    // Two comment lines typed above the steps, not saved: "answer" now starts on line 10.
    await cursorToLineEnd(page, 6);
    for (const comment of ['# one', '# two']) {
      await page.keyboard.press('Enter');
      await page.keyboard.insertText(comment);
    }
    await page.keyboard.press('Escape');
    await expect(page.getByLabel('unsaved changes')).toBeVisible();
    await clickGutter(page, 11);
    await expect(graph.getByRole('button', { name: 'Breakpoint on answer' })).toHaveAttribute('aria-pressed', 'true');
    await expect(graph.getByRole('button', { name: 'Breakpoint on switch' })).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => glyphLines(page)).toEqual([10]);
    await screenshotsAtBothSizes(page, 'debugger-gutter-unsaved');
    await page.getByRole('tab', { name: 'Debugger' }).click();
    await expect(bps).toHaveCount(1);
    await expect(bps).toContainText('flows.greet.steps[1]');
    await page.getByRole('tab', { name: 'Flows' }).click();

    // Saved: the breakpoint is on "answer" at its new line.
    await page.getByRole('button', { name: 'Save file' }).click();
    await expect(page.getByLabel('unsaved changes')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Debugger' }).click();
    await expect(bps.filter({ hasText: 'e2e-gutter/greet.yaml:10' })).toContainText('flows.greet.steps[1]');

    // A second breakpoint, on the switch; then "answer" moved below the switch on the graph, back above
    // it, and that undone with Ctrl+Z: each dot stays on its step.
    await page.getByRole('tab', { name: 'Flows' }).click();
    await clickGutter(page, 12);
    await expect.poll(() => glyphLines(page)).toEqual([10, 12]);
    // Both breakpoints in the list: nothing about them is still on its way to redraw the dots.
    await page.getByRole('tab', { name: 'Debugger' }).click();
    await expect(bps).toHaveCount(2);
    await page.getByRole('tab', { name: 'Flows' }).click();
    await graph.getByRole('button', { name: /^answer \(set\)/ }).click();
    await page.keyboard.press('Alt+ArrowDown');
    await expect(graph.locator('[data-path="flows.greet.steps[2]"]')).toHaveAccessibleName(/^answer/);
    await expect.poll(() => glyphLines(page)).toEqual([10, 15]);
    await page.keyboard.press('Alt+ArrowUp');
    await expect(graph.locator('[data-path="flows.greet.steps[1]"]')).toHaveAccessibleName(/^answer/);
    await expect.poll(() => glyphLines(page)).toEqual([10, 12]);
    await page.keyboard.press('Control+z');
    await expect(graph.locator('[data-path="flows.greet.steps[2]"]')).toHaveAccessibleName(/^answer/);
    await expect.poll(() => glyphLines(page)).toEqual([10, 15]);
    health.expectNone();
  });

  test('the line a paused run waits at is marked where its step is in the unsaved text', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-gutter' });
    await card.getByRole('button', { name: 'Run e2e-gutter' }).click();
    await expect(card.getByRole('status', { name: 'e2e-gutter is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!;
    await openFile(page, 'e2e-gutter', 'greet.yaml');
    // As saved by the test before: "answer" (line 10) holds a breakpoint. Two more lines typed above it, not saved.
    await expect.poll(() => glyphLines(page)).toEqual([10, 12]);
    await cursorToLineEnd(page, 6);
    for (const comment of ['# three', '# four']) {
      await page.keyboard.press('Enter');
      await page.keyboard.insertText(comment);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => glyphLines(page)).toEqual([12, 14]);
    const answered = fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer: 'bob' }) });
    await expect.poll(() => glyphLines(page, '.flow-paused-glyph'), { timeout: 15_000 }).toEqual([12]);
    await expect(page.locator('.flow-editor .flow-paused-line')).toHaveCount(1);
    await page.getByRole('tab', { name: 'Debugger' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('list', { name: 'Paused runs' }).getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Continue' }).click();
    const answer = await answered;
    expect(answer.status, await answer.text()).toBe(200);
    // The studio is shared with the other spec files: leave it without these breakpoints, stopped.
    for (const line of [10, 12]) await page.getByRole('button', { name: `Remove breakpoint greet.yaml:${line}` }).click();
    await expect(page.getByRole('list', { name: 'Breakpoints' }).getByRole('listitem')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Flows' }).click();
    await card.getByRole('button', { name: 'Stop' }).click();
    await expect(card.getByRole('status', { name: 'e2e-gutter is stopped' })).toBeVisible({ timeout: 15_000 });
    health.expectNone();
  });
});
