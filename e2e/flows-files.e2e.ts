import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './studio-fixture.ts';
import { cursorToLineEnd, focusEditor, openFile, openStudio, writeIntegration } from './flows-helpers.ts';

const API = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  hello:
    source: {type: http, path: /hello}
    steps:
      - set: {body: '{"greeting": "hello"}'}
`;

test.describe('definition files', () => {
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-files', { 'api.yaml': API }));

  test('Ctrl+S saves the file and the running integration serves the change', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-files' });
    await card.getByRole('button', { name: 'Run e2e-files' }).click();
    await expect(card.getByRole('status', { name: 'e2e-files is running' })).toBeVisible({ timeout: 15_000 });
    await openFile(page, 'e2e-files', 'api.yaml');
    await cursorToLineEnd(page, 7);
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+Shift+ArrowLeft');
    await page.keyboard.type('bonjour');
    await expect(card.getByRole('button', { name: 'api.yaml (unsaved)' })).toBeVisible();
    await page.keyboard.press('Control+s');
    await expect(card.getByRole('button', { name: 'api.yaml', exact: true })).toBeVisible();
    expect(readFileSync(join(studio.workspaceDir, 'e2e-files', 'api.yaml'), 'utf8')).toContain(`'{"greeting": "bonjour"}'`);
    // Port 0: the reloaded runtime may listen elsewhere, so the URL is read from the card each time.
    const greeting = async (): Promise<unknown> => (await fetch((await card.locator('.route-url').first().textContent())!).catch(() => undefined))?.json();
    await expect.poll(greeting, { timeout: 10_000 }).toEqual({ greeting: 'bonjour' });
    await card.getByRole('button', { name: 'Stop e2e-files' }).click();
  });

  test('creates, renames and deletes a file; undo history survives switching files', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-files' });
    await card.getByRole('button', { name: 'New file in e2e-files' }).click();
    await card.getByLabel('New file name in e2e-files').fill('extra');
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Open file')).toContainText('e2e-files/extra.yaml');
    await expect(page.locator('.flow-editor .view-lines')).toContainText('extra:');
    await expect(page.getByText('No problems: e2e-files loads as written.')).toBeVisible();

    // An edit marks the file unsaved; after visiting another file, undo still takes it back.
    await cursorToLineEnd(page, 4);
    await page.keyboard.type(' Edited.');
    await expect(card.getByRole('button', { name: 'extra.yaml (unsaved)' })).toBeVisible();
    await openFile(page, 'e2e-files', 'api.yaml');
    await card.getByRole('button', { name: /^extra\.yaml/ }).click();
    await expect(page.locator('.flow-editor .view-lines')).toContainText('Edited.');
    await focusEditor(page);
    await page.keyboard.press('Control+z');
    await expect(page.locator('.flow-editor .view-lines')).not.toContainText('Edited.');
    await expect(card.getByRole('button', { name: 'extra.yaml', exact: true })).toBeVisible();

    await card.getByRole('button', { name: 'Rename extra.yaml' }).click();
    await card.getByLabel('New name for extra.yaml').fill('renamed.yaml');
    await page.keyboard.press('Enter');
    await expect(card.getByRole('button', { name: 'renamed.yaml', exact: true })).toBeVisible();
    await expect(page.getByLabel('Open file')).toContainText('e2e-files/renamed.yaml');
    expect(existsSync(join(studio.workspaceDir, 'e2e-files', 'renamed.yaml'))).toBe(true);
    expect(existsSync(join(studio.workspaceDir, 'e2e-files', 'extra.yaml'))).toBe(false);

    await card.getByRole('button', { name: 'Delete renamed.yaml' }).click();
    await card.getByRole('group', { name: 'Delete renamed.yaml?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(card.getByRole('button', { name: /^renamed\.yaml/ })).toBeHidden();
    // The row may hide while the confirmation is answered, before the file is gone: wait for the disk.
    await expect.poll(() => existsSync(join(studio.workspaceDir, 'e2e-files', 'renamed.yaml'))).toBe(false);
    await expect(page.getByLabel('Open file')).toContainText('e2e-files/api.yaml');
  });

  test('an edit saved by another program shows in the open file and its graph', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'e2e-outside', { 'api.yaml': API });
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-outside', 'api.yaml');
    const path = join(studio.workspaceDir, 'e2e-outside', 'api.yaml');
    writeFileSync(path, readFileSync(path, 'utf8') + "      - log: {message: '\"from outside\"'}\n");
    await expect(page.locator('.flow-editor .view-lines')).toContainText('from outside');
    await expect(page.getByRole('region', { name: 'Flow graph of hello' }).getByRole('button', { name: /^log:/ })).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'e2e-outside' }).getByRole('button', { name: 'api.yaml', exact: true })).toBeVisible();
  });

  test('creates an integration whose starter definition loads', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await page.getByRole('button', { name: 'New integration' }).click();
    await page.getByLabel('New integration name').fill('e2e-new');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('listitem', { name: 'e2e-new' })).toBeVisible();
    await expect(page.getByLabel('Open file')).toContainText('e2e-new/flows.yaml');
    await expect(page.getByText('No problems: e2e-new loads as written.')).toBeVisible();
  });

  test('refuses a file name that is taken, saying why', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-files' });
    await card.getByRole('button', { name: 'New file in e2e-files' }).click();
    await card.getByLabel('New file name in e2e-files').fill('api.yaml');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'could not create api.yaml' })).toContainText('"api.yaml" already exists in "e2e-files"');
  });
});
