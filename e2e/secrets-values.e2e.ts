import { dirname, join } from 'node:path';
import { expect, test } from './studio-fixture.ts';
import { call, filesHolding, writeIntegration } from './resources-helpers.ts';

const SECRET = 'sk-live-e2e-4b1f9a0c7d3e';
const ROTATED = 'sk-live-e2e-rotated-88f0a1';

const definition = `env:
  API_TOKEN:
    required: true
    secret: true
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  check:
    source: {type: http, path: /check, methods: [GET]}
    steps:
      - set: {body: '{"tokenLength": size(env("API_TOKEN"))}'}
`;

interface DeploymentLike {
  id: string;
  status: string;
  routes: Array<{ url: string }>;
}

test.describe('secrets', () => {
  test('a value typed in the dialog is never shown again: not in the DOM, not in any answer, not in plain text on disk', async ({ page, studio }) => {
    const answers: string[] = [];
    const reading: Array<Promise<unknown>> = [];
    // Bodies of requests that finished loading. Waiting on every response's text() hung this test
    // once beside a CPU-heavy job (60 s, all else passed): a response whose load never completes
    // (cancelled by the browser) never yields a body, and its text() never settles.
    page.on('requestfinished', (req) => reading.push(req.response().then((r) => r?.text()).then((t) => t !== undefined && answers.push(t), () => {})));
    page.on('websocket', (ws) => ws.on('framereceived', (f) => answers.push(String(f.payload))));

    await page.goto(studio.url);
    await page.getByRole('tab', { name: 'Secrets' }).click();
    // Web mode says honestly that a key file, not an OS keyring, protects the values.
    await expect(page.getByRole('status', { name: 'Secret backend' })).toContainText('No OS secret backend in web mode');

    await page.getByRole('button', { name: 'New secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'New secret' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('vault-token');
    await dialog.getByLabel('Value (write-only)').fill(SECRET);
    await dialog.getByRole('button', { name: 'Store secret' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Stored vault-token' })).toBeVisible();
    await expect(page.getByRole('row', { name: 'vault-token' })).toContainText('no deployment');

    // The value is used: a deployment binds it and its flow sees a token of the right length.
    writeIntegration(studio.workspaceDir, 'vault', { 'vault.yaml': definition });
    await call(page, studio.origin, 'createTag', 'vault', 'v1');
    const deployment = await call<DeploymentLike>(page, studio.origin, 'deployTag', { deployment: 'vault-v1', integration: 'vault', tag: 'v1', bindings: { API_TOKEN: { secret: 'vault-token' } } });
    expect(deployment.status).toBe('running');
    expect(await (await fetch(deployment.routes[0].url)).json()).toEqual({ tokenLength: SECRET.length });

    await page.getByRole('tab', { name: 'Flows' }).click();
    await page.getByRole('tab', { name: 'Secrets' }).click();
    const row = page.getByRole('row', { name: 'vault-token' });
    await expect(row.locator('[data-field="used-by"]')).toContainText('vault-v1 as API_TOKEN');

    // Overwriting uses the same write-only field; a restart of the deployment picks the new value up.
    await row.getByRole('button', { name: 'Overwrite…' }).click();
    const overwrite = page.getByRole('dialog', { name: 'Overwrite secret vault-token' });
    await overwrite.getByLabel('Value (write-only)').fill(ROTATED);
    await overwrite.getByRole('button', { name: 'Overwrite' }).click();
    await expect(overwrite).toBeHidden();
    await call(page, studio.origin, 'stopDeployment', 'vault-v1');
    const restarted = await call<DeploymentLike>(page, studio.origin, 'startDeployment', 'vault-v1');
    expect(await (await fetch(restarted.routes[0].url)).json()).toEqual({ tokenLength: ROTATED.length });

    // Every place the value could show up.
    await Promise.all(reading);
    const dataDir = join(dirname(studio.workspaceDir), 'data');
    for (const value of [SECRET, ROTATED]) {
      expect(await page.content()).not.toContain(value);
      expect(await page.evaluate(() => [...document.querySelectorAll('input, textarea')].map((e) => (e as HTMLInputElement).value).join('\n'))).not.toContain(value);
      expect(answers.filter((a) => a.includes(value))).toEqual([]);
      expect(filesHolding(dataDir, value)).toEqual([]);
      expect(filesHolding(studio.workspaceDir, value)).toEqual([]);
    }
    expect(answers.length).toBeGreaterThan(5);
    await call(page, studio.origin, 'removeDeployment', 'vault-v1');
  });

  test('deleting a secret a deployment binds lists the deployment and is refused unless forced', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'billing', { 'billing.yaml': definition });
    await page.goto(studio.url);
    await call(page, studio.origin, 'putSecret', 'billing-token', 'sk-billing-0001');
    await call(page, studio.origin, 'createTag', 'billing', 'v1');
    await call(page, studio.origin, 'deployTag', { deployment: 'billing-v1', integration: 'billing', tag: 'v1', bindings: { API_TOKEN: { secret: 'billing-token' } } });

    await page.getByRole('tab', { name: 'Secrets' }).click();
    await page.getByRole('row', { name: 'billing-token' }).getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete secret billing-token' });
    await expect(dialog.getByRole('list', { name: 'Bound by' })).toHaveText('deployment billing-v1 as API_TOKEN');

    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('the secret "billing-token" is bound by deployment "billing-v1" (API_TOKEN)');
    expect((await call<Array<{ name: string }>>(page, studio.origin, 'listSecrets')).map((s) => s.name)).toContain('billing-token');

    await dialog.getByRole('button', { name: 'Force delete: billing-v1 will not start' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Deleted billing-token' })).toContainText('billing-v1 (API_TOKEN) will not start');
    await expect(page.getByRole('row', { name: 'billing-token' })).toHaveCount(0);
    await call(page, studio.origin, 'removeDeployment', 'billing-v1');
  });

  test('a platform secret typed in the panel is what secret("name") reads in a flow, and it is never shown again', async ({ page, studio }) => {
    const value = 'pk-e2e-platform-6c2d91';
    const answers: string[] = [];
    page.on('requestfinished', (req) => void req.response().then((r) => r?.text()).then((t) => t !== undefined && answers.push(t), () => {}));
    await page.goto(studio.url);
    const routes = await call<{ routes: Array<{ url: string }> }>(page, studio.origin, 'createIntegration', 'courier-keys')
      .catch(() => undefined)
      .then(() =>
        call(page, studio.origin, 'writeFile', 'courier-keys', 'courier.yaml', `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  ship:
    source: {type: http, path: /ship, methods: [GET]}
    steps:
      - set: {body: '{"keyLength": size(secret("courier-api-key"))}'}
`),
      )
      .then(() => call<{ routes: Array<{ url: string }> }>(page, studio.origin, 'startIntegration', 'courier-keys'));

    await page.getByRole('tab', { name: 'Secrets' }).click();
    const section = page.getByRole('region', { name: 'Platform secrets' });
    await section.getByRole('button', { name: 'New platform secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'New platform secret' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('courier-api-key');
    await dialog.getByLabel('Value (write-only)').fill(value);
    await dialog.getByRole('button', { name: 'Store secret' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Stored courier-api-key' })).toBeVisible();
    await expect(section.getByRole('row', { name: 'courier-api-key' })).toBeVisible();

    // The flow read it when it started (it did not exist then): a restart reads it now.
    const restarted = await call<{ routes: Array<{ url: string }> }>(page, studio.origin, 'restartIntegration', 'courier-keys');
    expect(routes.routes).toHaveLength(1);
    expect(await (await fetch(restarted.routes[0].url)).json()).toEqual({ keyLength: value.length });

    expect(await page.content()).not.toContain(value);
    expect(answers.join('\n')).not.toContain(value);
    await call(page, studio.origin, 'stopIntegration', 'courier-keys');
  });
});
