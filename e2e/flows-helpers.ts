import { expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes an integration into the workspace the way a person's other editor would. */
export function writeIntegration(workspaceDir: string, id: string, files: Record<string, string>): void {
  mkdirSync(join(workspaceDir, id), { recursive: true });
  writeFileSync(join(workspaceDir, id, 'integration.json'), JSON.stringify({ name: id }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(workspaceDir, id, file), text);
}

export async function openStudio(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 2, name: 'Flows' })).toBeVisible();
}

/** Opens a file from the list on the left and waits for Monaco to show it. */
export async function openFile(page: Page, integration: string, file: string): Promise<void> {
  const card = page.getByRole('listitem', { name: integration });
  await card.getByRole('button', { name: new RegExp(`^${file.replace('.', '\\.')}`) }).click();
  await expect(page.getByLabel('Open file')).toContainText(`${integration}/${file}`);
  await expect(page.locator('.flow-editor .view-lines')).toContainText(/\S/, { timeout: 20_000 });
}

/**
 * Clicks into the editor's visible text area near its top-left corner, where no hover or
 * suggestion box is (the text itself may be scrolled sideways).
 */
export async function focusEditor(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.locator('.flow-editor .overflow-guard').click({ position: { x: 90, y: 4 } });
}

/** Puts the cursor at the end of a 1-based line of the editor, by keyboard as a person would. */
export async function cursorToLineEnd(page: Page, line: number): Promise<void> {
  // Checked by the editor's active line number, and tried again if it is not there: on a loaded
  // machine a keystroke can land before the editor has taken focus (a full run once typed on line 3).
  await expect(async () => {
    await focusEditor(page);
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await expect(page.locator('.flow-editor .line-numbers.active-line-number')).toHaveText(String(line), { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * The x position of a 1-based column on the editor line showing `text`, for marker checks; `editor`
 * is a selector of the Monaco editor to look in (the flow editor unless told).
 */
export async function columnX(page: Page, lineText: string, column: number, editor = '.flow-editor'): Promise<{ x: number; top: number }> {
  return page.evaluate(
    ({ lineText, column, editor }) => {
      const lines = [...document.querySelectorAll<HTMLElement>(`${editor} .view-line`)];
      const line = lines.find((l) => (l.textContent ?? '').replace(/\u00a0/g, ' ').includes(lineText));
      if (!line) throw new Error(`no editor line shows ${lineText}`);
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let remaining = column - 1;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const len = node.textContent?.length ?? 0;
        if (remaining < len) {
          const range = document.createRange();
          range.setStart(node, remaining);
          range.setEnd(node, remaining + 1);
          const r = range.getBoundingClientRect();
          return { x: r.left, top: line.getBoundingClientRect().top };
        }
        remaining -= len;
      }
      throw new Error(`line ${lineText} is shorter than column ${column}`);
    },
    { lineText, column, editor },
  );
}

/**
 * Rests the mouse on a 1-based column of the editor line showing `lineText` until `hover` shows,
 * as a person moves the mouse again when no hover came: Monaco drops a hover whose position
 * changed under it (markers or tokens arriving on a loaded machine), and does not ask again
 * until the mouse moves.
 */
export async function hoverUntilShown(page: Page, lineText: string, column: number, hover: Locator, editor?: string): Promise<void> {
  await expect(async () => {
    await page.mouse.move(0, 0);
    const at = await columnX(page, lineText, column, editor);
    await page.mouse.move(at.x + 2, at.top + 8);
    await expect(hover).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

/** A definition of `flows` flows, 25 lines each, behind one http connector. */
export function bigDefinition(flows: number): string {
  const out = ['connectors:', '  web: {type: http, host: 127.0.0.1, port: 0}', 'flows:'];
  for (let i = 0; i < flows; i++) {
    out.push(
      `  flow-${i}:`,
      `    description: Flow number ${i} of a long definition.`,
      `    source: {type: http, path: "/items-${i}/{id}", methods: [POST]}`,
      '    steps:',
      '      - name: require items',
      '        filter:',
      '          condition: has(body.items) && size(body.items) > 0',
      `          reject: {status: 400, body: '{"error": "no items"}'}`,
      '      - switch:',
      '          cases:',
      '            - when: vars.query.kind == "a"',
      '              steps:',
      `                - set: {vars: {kind: '"a"'}}`,
      '            - when: vars.query.kind == "b"',
      '              steps:',
      `                - set: {vars: {kind: '"b"'}}`,
      '      - set:',
      '          body: \'{"id": vars.id, "items": size(body.items)}\'',
      '      - log:',
      '          message: \'"priced " + vars.id\'',
      '          level: info',
      '    onError:',
      '      - set: {vars: {httpStatus: "500"}}',
      '      - log: {message: vars.error.message, level: warn}',
      '',
    );
  }
  return out.join('\n');
}
