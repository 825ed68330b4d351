import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { cursorToLineEnd, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

// Line 7: the first step; 8–9: "answer", its name and its settings; 10: the switch.
const FLOW = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    source: {type: http, path: /greet, methods: [POST]}
    steps:
      - set: {vars: {greeting: '"hello " + body.customer'}}
      - name: answer
        set: {body: '{"greeting": vars.greeting}'}
      - switch:
          cases:
            - when: body.customer == "bob"
              steps:
                - log: {message: '"bob"'}
`;

/** Clicks the editor's gutter left of a line number, where a person sets a breakpoint. */
async function clickGutter(page: Page, line: number): Promise<void> {
  const number = page.locator('.flow-editor .line-numbers', { hasText: new RegExp(`^${line}$`) });
  const row = (await number.boundingBox())!;
  const glyphs = (await page.locator('.flow-editor .glyph-margin').first().boundingBox())!;
  await page.mouse.click(glyphs.x + glyphs.width / 2, row.y + row.height / 2);
}

/** The editor lines that show a breakpoint's dot. */
async function glyphLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    // Both sit in the editor's margin at the top of their line.
    const numbers = [...document.querySelectorAll<HTMLElement>('.flow-editor .line-numbers')].map((n) => ({ line: Number(n.textContent), top: n.parentElement!.style.top }));
    return [...document.querySelectorAll<HTMLElement>('.flow-editor .flow-bp-glyph')]
      .map((g) => numbers.find((n) => n.top === g.style.top)?.line ?? -1)
      .sort((a, b) => a - b);
  });
}

test.describe('breakpoints set in the gutter go on the step clicked', () => {
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
});
