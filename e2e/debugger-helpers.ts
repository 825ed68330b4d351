import type { Page } from '@playwright/test';
import { expect } from './studio-fixture.ts';

/** The debugger specs' flow. Two steps: line 7 sets the greeting, lines 8–9 answer with it. */
export const GREET = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    source: {type: http, path: /greet, methods: [POST]}
    steps:
      - set: {vars: {greeting: '"hello " + body.customer'}}
      - name: answer
        set: {body: '{"greeting": vars.greeting}'}
`;

/** Clicks the editor's gutter left of a line number, where a person sets a breakpoint. */
export async function clickGutter(page: Page, line: number): Promise<void> {
  const number = page.locator('.flow-editor .line-numbers', { hasText: new RegExp(`^${line}$`) });
  // Measured again while the editor redraws its lines (a box of a line it replaced is null).
  let at: { x: number; y: number } | undefined;
  await expect(async () => {
    const row = await number.boundingBox();
    const glyphs = await page.locator('.flow-editor .glyph-margin').first().boundingBox();
    expect(row && glyphs).toBeTruthy();
    at = { x: glyphs!.x + glyphs!.width / 2, y: row!.y + row!.height / 2 };
  }).toPass();
  await page.mouse.click(at!.x, at!.y);
}
