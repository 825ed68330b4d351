import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, startServer, test } from './studio-fixture.ts';
import { openStudio } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

const ordersApi = fileURLToPath(new URL('../examples/orders-api', import.meta.url));

test.describe('a workspace that is one integration', () => {
  test('opening an integration folder as the workspace says why no flow is listed and which start lists them', async ({ page }) => {
    // What `flow-studio run examples/orders-api` takes, given to `serve --workspace`.
    const { server, stop } = await startServer({ seedWorkspace: (dir) => cpSync(ordersApi, dir, { recursive: true }) });
    try {
      const parent = dirname(server.workspaceDir);
      // Printed after the URL, once the studio has looked at the folder.
      await expect.poll(() => server.output()).toContain(`note: ${server.workspaceDir} holds flow definitions itself (orders.yaml)`);
      expect(server.output()).toContain(`flow-studio serve --workspace ${parent}`);

      const health = collectPageErrors(page);
      await openStudio(page, server.url);
      await expect(page.getByRole('heading', { name: 'This folder is an integration, not a workspace' })).toBeVisible();
      const why = page.locator('.empty-state');
      await expect(why).toContainText(`${server.workspaceDir} holds flow definitions itself (orders.yaml)`);
      await expect(why.locator('code')).toHaveText(`flow-studio serve --workspace ${parent}`);
      await expect(page.getByRole('heading', { name: 'No integrations in the workspace' })).toHaveCount(0);
      await screenshotsAtBothSizes(page, 'workspace-is-integration');
      health.expectNone();
    } finally {
      await stop();
    }

    // The start it names lists the flows.
    const { server: above, stop: stopAbove } = await startServer({
      seedWorkspace: (dir) => cpSync(ordersApi, join(dir, 'orders-api'), { recursive: true }),
    });
    try {
      await openStudio(page, above.url);
      await expect(page.getByRole('listitem', { name: 'orders-api' })).toBeVisible();
      // By now the studio has listed the folder; a note would have come right after the URL.
      expect(above.output()).not.toContain('note:');
      await expect(page.getByRole('heading', { name: 'This folder is an integration, not a workspace' })).toHaveCount(0);
    } finally {
      await stopAbove();
    }
  });
});
