import { readFileSync } from 'node:fs';
import { expect, test } from './studio-fixture.ts';
import { openResources, writeIntegration } from './resources-helpers.ts';

const definition = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  hello:
    source: {type: http, path: /hello, methods: [GET]}
    steps:
      - template: {name: greetings/hello.txt}
`;

test.describe('bundles', () => {
  test('an integration is exported as a bundle and imported under another name after a preview', async ({ page, studio }, testInfo) => {
    writeIntegration(studio.workspaceDir, 'orders', { 'orders.yaml': definition, 'env/base.env': 'REGION=eu\n', 'template/greetings/hello.txt': 'hello {{ vars.method }}' });
    await openResources(page, studio.url, 'orders');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export bundle' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('orders.tar');
    const file = testInfo.outputPath('orders.tar');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(257, 262).toString()).toBe('ustar');

    // Into the same integration nothing changes; into a new one every file is created.
    await page.getByLabel('Bundle file').setInputFiles(file);
    const dialog = page.getByRole('dialog', { name: 'Import orders.tar' });
    const preview = dialog.getByRole('table', { name: 'Import preview' });
    await expect(dialog).toContainText('Replaces the working copy of orders: nothing changes.');
    await expect(preview.locator('[data-field="change"]')).toHaveText(['unchanged', 'unchanged', 'unchanged']);
    await dialog.getByRole('textbox', { name: 'Target integration' }).fill('orders-copy');
    await expect(dialog).toContainText('Creates the integration orders-copy: 3 files change.');
    await expect(preview.getByRole('row', { name: 'template/greetings/hello.txt' }).locator('[data-field="change"]')).toHaveText('create');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog).toBeHidden();

    await expect(page.getByRole('combobox', { name: 'Integration' })).toHaveValue('orders-copy');
    await expect(page.getByRole('button', { name: 'template/greetings/hello.txt' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'env/base.env' })).toBeVisible();

    // After a resource is deleted in the copy, importing again says it comes back and what is left alone.
    await page.getByRole('button', { name: 'env/base.env' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByRole('button', { name: 'env/base.env' })).toHaveCount(0);
    await page.getByLabel('Bundle file').setInputFiles(file);
    await page.getByRole('dialog', { name: 'Import orders.tar' }).getByRole('textbox', { name: 'Target integration' }).fill('orders-copy');
    await expect(preview.getByRole('row', { name: 'env/base.env' }).locator('[data-field="change"]')).toHaveText('create');
    await expect(preview.getByRole('row', { name: 'orders.yaml' }).locator('[data-field="change"]')).toHaveText('unchanged');
  });
});
