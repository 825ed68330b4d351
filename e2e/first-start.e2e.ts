import { expect, test } from './studio-fixture.ts';
import { openStudio } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

test.describe('first start', () => {
  test('opens on a sample that runs here, says what another needs before Run, and shows its failed Run in Problems', async ({ page, freshStudio: studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    // The first sample that needs no outside server is open, and it runs.
    await expect(page.getByLabel('Open file')).toContainText('json-api/items.yaml');
    const jsonApi = page.getByRole('listitem', { name: 'json-api' });
    await expect(jsonApi.getByLabel('What json-api needs')).toHaveCount(0);
    await expect(page.getByText('No problems: json-api loads as written.')).toBeVisible();
    await jsonApi.getByRole('button', { name: 'Run json-api' }).click();
    await expect(jsonApi.getByRole('status', { name: 'json-api is running' })).toBeVisible({ timeout: 15_000 });

    // A sample that needs a MongoDB server says so, and how to point it at one, before Run.
    const docstore = page.getByRole('listitem', { name: 'docstore-crud' });
    await expect(docstore.getByLabel('What docstore-crud needs')).toContainText('MongoDB wire-protocol server');
    await expect(docstore.getByLabel('What docstore-crud needs')).toContainText('DOCSTORE_URI');
    await docstore.getByRole('button', { name: 'Run docstore-crud' }).click();
    await expect(docstore.getByRole('status', { name: 'docstore-crud is failed' })).toBeVisible({ timeout: 20_000 });
    await expect(docstore.locator('.reason.error')).toContainText('could not reach the server');

    // Its Problems do not say "No problems": they show why the Run failed.
    await docstore.getByRole('button', { name: /^notes-api\.yaml/ }).click();
    await expect(page.getByLabel('Open file')).toContainText('docstore-crud/notes-api.yaml');
    await expect(page.getByRole('alert', { name: 'Run of docstore-crud failed' })).toContainText('could not reach the server');
    await expect(page.getByRole('tab', { name: 'Problems (1)' })).toBeVisible();
    await expect(page.getByText('No problems: docstore-crud')).toHaveCount(0);
    await screenshotsAtBothSizes(page, 'first-start-run-failed');

    await jsonApi.getByRole('button', { name: 'Stop json-api' }).click();
    await expect(jsonApi.getByRole('button', { name: 'Run json-api' })).toBeVisible({ timeout: 15_000 });
    health.expectNone();
  });
});
