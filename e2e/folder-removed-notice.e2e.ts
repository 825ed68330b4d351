import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './studio-fixture.ts';
import { openStudio, writeIntegration } from './flows-helpers.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

const flow = `connectors:
  web: {type: http, port: 0}
flows:
  ping:
    source: {type: http, path: /ping, methods: [GET]}
    steps:
      - set: {body: '{"pong": true}'}
`;

test.describe('an integration whose folder is deleted while it runs', () => {
  test('says it stopped and why, though its card left with the folder', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'leaving-soon', { 'ping.yaml': flow });
    await page.setViewportSize({ width: 1440, height: 900 });
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'leaving-soon' });
    await card.getByRole('button', { name: 'Run leaving-soon' }).click();
    await expect(card.getByRole('status', { name: 'leaving-soon is running' })).toBeVisible({ timeout: 20_000 });

    rmSync(join(studio.workspaceDir, 'leaving-soon'), { recursive: true });
    await expect(card).toHaveCount(0, { timeout: 20_000 });
    const notice = page.locator('.notice');
    await expect(notice).toContainText('leaving-soon stopped: its folder leaving-soon is no longer in the workspace', { timeout: 20_000 });
    await screenshotsAtBothSizes(page, 'folder-removed-notice');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);

    // The Logs panel keeps it after the notice is gone.
    await page.getByRole('tab', { name: 'Logs' }).click();
    await expect(page.getByLabel('Logs', { exact: true }).getByText('stopped: its folder leaving-soon is no longer in the workspace')).toBeVisible();
    await screenshotsAtBothSizes(page, 'folder-removed-logs');
  });
});
