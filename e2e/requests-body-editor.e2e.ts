import { expect, test } from './studio-fixture.ts';
import { openStudio, startIntegration, writeIntegration } from './requests-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

const ECHO = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  echo:
    source: {type: http, path: "/users/{id}", methods: [POST]}
    steps:
      - set: {body: 'body'}
`;

test.describe('the composer body', () => {
  test('is a JSON editor where {{ offers the route’s path parameters, filled in when sent', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    writeIntegration(studio.workspaceDir, 'e2e-echo', { 'echo.yaml': ECHO });
    await openStudio(page, studio.url);
    await startIntegration(page, studio.origin, 'e2e-echo');
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('button', { name: 'New request to /users/{id} of e2e-echo' }).click();
    await page.getByRole('textbox', { name: 'Path parameter id' }).fill('42');

    const editor = page.getByTestId('body-editor');
    await expect(editor.locator('.view-lines')).toBeVisible({ timeout: 20_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('{"user": "{{');
    const suggestion = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: 'id' });
    await expect(suggestion).toBeVisible();
    await page.keyboard.press('Enter');
    await page.keyboard.type('"}');
    await expect(editor.locator('.view-lines')).toContainText('{"user": "{{id}}"}');
    await expect(editor.locator('.squiggly-error')).toHaveCount(0);
    await screenshotsAtBothSizes(page, 'requests-body-editor');

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('200');
    await expect(page.getByRole('tree', { name: 'Response body' })).toContainText('"42"');
    health.expectNone();
  });
});
