import { expect, test } from './studio-fixture.ts';
import { call, openResources, typeInEditor, variableRow, writeIntegration } from './resources-helpers.ts';

const definition = `env:
  GREETING:
    description: How the greeter greets.
    default: from-default
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    source: {type: http, path: /greet, methods: [GET]}
    steps:
      - set: {body: '{"greeting": env("GREETING")}'}
`;

interface RunStateLike {
  integration: string;
  status: string;
  routes: Array<{ url: string }>;
}

test.describe('the environment of a studio run', () => {
  test('an env resource created in the panel becomes the effective value, and a binding then wins over it', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'greeter', { 'greeter.yaml': definition });
    await openResources(page, studio.url, 'greeter');

    // Name rules are enforced as they are typed, with the platform's own message.
    const form = page.getByRole('form', { name: 'New resource' });
    const name = form.getByRole('textbox', { name: 'Name' });
    await name.fill('/local.env');
    await expect(form.getByRole('alert')).toContainText('is absolute; names are relative: drop the leading /');
    await expect(form.getByRole('button', { name: 'Create' })).toBeDisabled();
    await name.fill('local.env');
    await expect(form.getByRole('button', { name: 'Create' })).toBeEnabled();
    await form.getByRole('button', { name: 'Create' }).click();

    await expect(page.getByRole('button', { name: 'env/local.env' })).toHaveAttribute('aria-current', 'true');
    await typeInEditor(page, 'greeter/env/local.env', '# for local runs\nGREETING=from-env-file\n');
    await page.keyboard.press('ControlOrMeta+S');
    await expect(page.getByRole('status')).toContainText('Saved');

    await page.getByRole('tab', { name: 'Environment' }).click();
    const row = variableRow(page, 'GREETING');
    await expect(row.locator('[data-field="effective"]')).toContainText('"from-env-file"');
    await expect(row.locator('[data-field="source"]')).toHaveText('from env resource env/local.env:2');
    await expect(row.getByRole('list', { name: 'Sources of GREETING' }).getByRole('listitem')).toHaveText([/wins env resource env\/local\.env:2/, /declared default "from-default"/]);

    // A binding for studio runs wins over the env file.
    const bind = row.getByRole('form', { name: 'Bind GREETING' });
    await bind.getByRole('combobox', { name: 'Binding of GREETING' }).selectOption('value');
    await bind.getByRole('textbox', { name: 'Value of GREETING' }).fill('from-binding');
    await bind.getByRole('button', { name: 'Save' }).click();
    await expect(row.locator('[data-field="source"]')).toHaveText('from binding');
    await expect(row.locator('[data-field="effective"]')).toContainText('"from-binding"');
    await expect(row.getByRole('list', { name: 'Sources of GREETING' }).getByRole('listitem').first()).toContainText('wins binding');

    // And the run gets exactly what the view says.
    const state = await call<RunStateLike>(page, studio.origin, 'startIntegration', 'greeter');
    expect(state.status).toBe('running');
    expect(await (await fetch(state.routes[0].url)).json()).toEqual({ greeting: 'from-binding' });
    await call(page, studio.origin, 'stopIntegration', 'greeter');
  });

  test('a template is previewed against a sample message while it is edited', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'mailer', { 'mailer.yaml': definition, 'template/emails/welcome.txt': 'Hi {{ body.name }}' });
    await openResources(page, studio.url, 'mailer');
    await page.getByRole('button', { name: 'template/emails/welcome.txt' }).click();
    const preview = page.getByRole('region', { name: 'Template preview' });
    await expect(preview.getByLabel('Rendered template')).toHaveText('Hi Ana');

    await typeInEditor(page, 'mailer/template/emails/welcome.txt', 'Hi {{ body.name }}, {{ size(body.items) }} item via {{ vars.method }}');
    await expect(preview.getByLabel('Rendered template')).toHaveText('Hi Ana, 1 item via POST');
    await preview.getByRole('textbox', { name: 'Sample message' }).fill('{"body": {"name": "Bo", "items": []}, "vars": {"method": "GET"}}');
    await expect(preview.getByLabel('Rendered template')).toHaveText('Hi Bo, 0 item via GET');

    await typeInEditor(page, 'mailer/template/emails/welcome.txt', 'Hi {{ body.name ');
    await expect(preview.getByRole('alert')).toHaveText('line 1: "{{" is never closed with "}}"');
  });
});
