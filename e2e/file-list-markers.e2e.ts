import { expect, test } from './studio-fixture.ts';
import { focusEditor, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

const flow = `flows:
  ping:
    steps:
      - set: {body: '{"pong": true}'}
`;
const longName = 'a-rather-long-name-for-the-price-checks.test.yaml';

test.describe('the file list of an integration at 1024x700', () => {
  test("keeps a long file's problem count and unsaved marker on screen: the name gives way", async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'markers', { 'ping.yaml': flow, [longName]: 'tests:\n  t:\n    flow: ping\n    expct: {}\n' });
    await page.setViewportSize({ width: 1024, height: 700 });
    await openStudio(page, studio.url);
    // Problems are counted for the integration open in the editor.
    await openFile(page, 'markers', longName);
    const card = page.getByRole('listitem', { name: 'markers' });
    const row = card.getByRole('button', { name: new RegExp(`^${longName.replaceAll('.', '\\.')}.*2 problems$`) });
    await expect(row).toBeVisible({ timeout: 20_000 });
    const within = async (marker: ReturnType<typeof row.locator>): Promise<void> => {
      await expect(marker).toBeVisible();
      const [rowBox, markerBox] = [(await row.boundingBox())!, (await marker.boundingBox())!];
      expect(markerBox.x + markerBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width + 0.5);
    };
    await within(row.locator('.problem-count'));
    await expect(row.locator('.file-label')).toHaveAttribute('title', longName);

    await focusEditor(page);
    await page.keyboard.type('#');
    await within(row.locator('.dirty-dot'));
    await within(row.locator('.problem-count'));
    // The Problems list gives the message room beside the long name, whose line:col stays whole.
    const problem = page.getByRole('list', { name: 'Definition problems' }).getByRole('button').filter({ hasText: 'did you mean "tests"?' });
    await expect(problem.locator('.where')).toHaveAttribute('title', `${longName}:1:1`);
    await expect(problem.locator('.where')).toContainText(':1:1');
    const [problemBox, messageBox] = [(await problem.boundingBox())!, (await problem.locator('.message').boundingBox())!];
    expect(messageBox.width).toBeGreaterThan(problemBox.width * 0.4);
    await screenshotsAtBothSizes(page, 'file-list-markers');
  });
});
