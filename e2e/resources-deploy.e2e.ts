import { expect, test } from './studio-fixture.ts';
import { openResources, typeInEditor, variableRow, writeIntegration } from './resources-helpers.ts';

const definition = `env:
  UPSTREAM_URL:
    description: Where orders are forwarded.
    required: true
  REGION:
    default: eu
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  reply:
    source: {type: http, path: /reply, methods: [GET]}
    steps:
      - template: {name: reply.txt}
`;

test.describe('version tags and local deploy', () => {
  test('a tag is deployed with bindings checked up front, keeps serving the old template after the working copy changes, and diffs against it', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'shop', { 'shop.yaml': definition, 'template/reply.txt': 'v1 for {{ vars.method }}', 'env/base.env': 'REGION=us\n' });
    await openResources(page, studio.url, 'shop');
    await page.getByRole('tab', { name: 'Versions & deploy' }).click();

    const newTag = page.getByRole('form', { name: 'New tag' });
    await newTag.getByRole('textbox', { name: 'Tag' }).fill('v1');
    await newTag.getByRole('textbox', { name: 'Description' }).fill('first cut');
    await newTag.getByRole('button', { name: 'Create tag' }).click();
    const tagRow = page.getByRole('table', { name: 'Tags' }).getByRole('row', { name: 'v1' });
    await expect(tagRow).toContainText('first cut');
    await expect(tagRow).toContainText(/by \S+/);
    await expect(tagRow).toContainText('1 definition, 2 resources');

    // The dialog lists the tag's variables, marks what frozen env files satisfy, and flags the unbound required one.
    await tagRow.getByRole('button', { name: 'Deploy…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy shop v1 locally' });
    await expect(variableRow(dialog, 'REGION')).toContainText('satisfied by frozen env/base.env');
    await expect(variableRow(dialog, 'REGION').locator('[data-field="source"]')).toHaveText('from env resource env/base.env:1');
    await expect(variableRow(dialog, 'UPSTREAM_URL').getByRole('alert')).toContainText('required, but no binding and no frozen env resource gives it a value');
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await expect(dialog.getByRole('alert').last()).toContainText('tag "v1" requires UPSTREAM_URL, which has no binding and no frozen env resource');

    await variableRow(dialog, 'UPSTREAM_URL').getByRole('combobox', { name: 'Binding of UPSTREAM_URL' }).selectOption('value');
    await variableRow(dialog, 'UPSTREAM_URL').getByRole('textbox', { name: 'Value of UPSTREAM_URL' }).fill('http://127.0.0.1:9/orders');
    await expect(variableRow(dialog, 'UPSTREAM_URL').locator('[data-field="source"]')).toHaveText('from binding');
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await expect(dialog).toBeHidden();

    const deployment = page.getByRole('region', { name: 'Deployments' }).getByRole('row', { name: 'shop-v1' });
    await expect(deployment.locator('[data-field="status"]')).toContainText('running');
    await expect(deployment.locator('[data-field="snapshot"]')).toHaveText(/^snap_/);
    const url = (await deployment.locator('.route-url').textContent())!;
    expect(await (await fetch(url)).json()).toBe('v1 for GET');

    // Edit the working copy's template in the editor: the deployment keeps serving its tag.
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByRole('button', { name: 'template/reply.txt' }).click();
    await typeInEditor(page, 'shop/template/reply.txt', 'v2 for {{ vars.method }}');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status')).toContainText('Saved');
    expect(await (await fetch(url)).json()).toBe('v1 for GET');

    await page.getByRole('tab', { name: 'Versions & deploy' }).click();
    await page.getByRole('table', { name: 'Tags' }).getByRole('row', { name: 'v1' }).getByRole('button', { name: 'Diff' }).click();
    const diff = page.getByRole('article', { name: 'Diff of template/reply.txt' });
    await expect(diff).toContainText('changed');
    await expect(diff.locator('.line.remove')).toHaveText('- v1 for {{ vars.method }}');
    await expect(diff.locator('.line.add')).toHaveText('+ v2 for {{ vars.method }}');
    await expect(page.getByRole('region', { name: 'Changes since v1' })).toContainText('1 changed, 2 unchanged');

    // Stop and start from the list; the deployment's environment shows the binding winning.
    await deployment.getByRole('button', { name: 'Stop' }).click();
    await expect(deployment.locator('[data-field="status"]')).toHaveText('stopped');
    await deployment.getByRole('button', { name: 'Start' }).click();
    await expect(deployment.locator('[data-field="status"]')).toContainText('running');
    const restarted = (await deployment.locator('.route-url').textContent())!;
    expect(await (await fetch(restarted)).json()).toBe('v1 for GET');
    await deployment.getByRole('button', { name: 'Environment' }).click();
    const env = page.getByRole('region', { name: 'Environment of shop-v1' });
    await expect(variableRow(env, 'UPSTREAM_URL').locator('[data-field="source"]')).toHaveText('from binding');
  });
});
