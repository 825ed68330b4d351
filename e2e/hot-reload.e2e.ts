import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './studio-fixture.ts';
import { cursorToLineEnd, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

const api = (reply: string) => `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  hello:
    source: {type: http, path: /hello}
    steps:
      - set: {body: '{"reply": "${reply}"}'}
`;

/** Asks the route until it answers `reply`; returns how long that took after `since`. */
async function servedAfter(url: () => Promise<string>, reply: string, since: number): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const body = await fetch(await url())
      .then((r) => r.json() as Promise<{ reply?: string }>)
      .catch(() => undefined);
    if (body?.reply === reply) return Date.now() - since;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the route never answered ${reply}`);
}

test.describe('hot reload', () => {
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-reload', { 'api.yaml': api('r0') }));

  test('five saves of one file, from the editor and from outside, each serve the new flow and show its version', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    const file = join(studio.workspaceDir, 'e2e-reload', 'api.yaml');
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-reload' });
    await card.getByRole('button', { name: 'Run e2e-reload' }).click();
    await expect(card.getByLabel('e2e-reload serves version 1')).toBeVisible({ timeout: 15_000 });
    const url = async (): Promise<string> => (await card.locator('.route-url').first().textContent())!;
    await openFile(page, 'e2e-reload', 'api.yaml');

    // Each save returns the moment it was made (Ctrl+S, or the write), for the timing.
    const saves: Array<{ how: string; save: () => Promise<number> }> = [
      { how: 'editor', save: () => saveFromEditor('r1') },
      { how: 'outside, in place', save: async () => (writeFileSync(file, api('r2')), Date.now()) },
      { how: 'outside, by rename', save: async () => outsideRename('r3') },
      { how: 'editor', save: () => saveFromEditor('r4') },
      { how: 'outside, by rename', save: async () => outsideRename('r5') },
    ];
    function outsideRename(reply: string): number {
      writeFileSync(`${file}.new`, api(reply));
      const at = Date.now();
      renameSync(`${file}.new`, file);
      return at;
    }
    async function saveFromEditor(reply: string): Promise<number> {
      // The word before `"}'}` at the end of line 7 is the reply.
      await cursorToLineEnd(page, 7);
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('Control+Shift+ArrowLeft');
      await page.keyboard.type(reply);
      const at = Date.now();
      await page.keyboard.press('Control+s');
      return at;
    }

    const timings: string[] = [];
    let version = 1;
    const shownVersions = async (): Promise<number[]> => {
      const onCard = await card.locator('.serving').getAttribute('data-generation').catch(() => null);
      const inBar = /e2e-reload: running v(\d+)/.exec((await page.getByRole('contentinfo', { name: 'Status' }).textContent()) ?? '')?.[1];
      return [Number(onCard), Number(inBar)];
    };
    for (const [i, { how, save }] of saves.entries()) {
      const reply = `r${i + 1}`;
      // An outside write shows in the editor (no unsaved edits there), so the next editor save starts from it.
      if (how === 'editor') await expect(page.locator('.flow-editor .view-lines')).toContainText(`"r${i}"`);
      const ms = await servedAfter(url, reply, await save());
      timings.push(`${how}: ${ms} ms`);
      // A newer version shows on the card and in the status bar. Newer, not exactly one more: an
      // outside editor's temporary file coming and going is a change of the folder too.
      await expect.poll(shownVersions).toEqual([expect.any(Number), expect.any(Number)]);
      await expect.poll(async () => {
        const [onCard, inBar] = await shownVersions();
        return onCard === inBar && onCard > version;
      }).toBe(true);
      version = (await shownVersions())[0];
    }
    console.log(`save → new behaviour served: ${timings.join('; ')}`);
    await screenshotsAtBothSizes(page, 'hot-reload-served');

    // A save with a problem keeps the last good version serving and says why.
    writeFileSync(file, api('r6').replace('set: {body:', 'set: {bodee:'));
    await expect(card.getByText('the saved change was not loaded, still running the previous version')).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText('unknown setting "bodee"')).toBeVisible();
    await expect(card.getByLabel(`e2e-reload serves version ${version}`)).toBeVisible();
    expect(await (await fetch(await url())).json()).toEqual({ reply: 'r5' });
    await screenshotsAtBothSizes(page, 'hot-reload-refused');

    writeFileSync(file, api('r7'));
    await servedAfter(url, 'r7', Date.now());
    await expect(card.getByLabel(`e2e-reload serves version ${version + 1}`)).toBeVisible();
    await expect(card.getByText('the saved change was not loaded')).toHaveCount(0);
    await card.getByRole('button', { name: 'Stop e2e-reload' }).click();
    health.expectNone();
  });
});
