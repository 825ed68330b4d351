import { expect, test } from './studio-fixture.ts';
import { openStudio } from './requests-helpers.ts';
import { runIntegration } from './platform-views-support.ts';

test.describe('the Logs panel when the filters match nothing', () => {
  test('says how many lines the filters hide and clears them in one click, rather than repeating where records come from', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await runIntegration(
      page,
      studio.origin,
      'loquat-logs',
      `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  loquat-echo:
    source: {type: http, path: /loquat, methods: [POST]}
    steps:
      - set: {body: '{"got": body}'}
`,
    );
    await page.getByRole('tab', { name: 'Logs' }).click();
    const list = page.getByLabel('Logs', { exact: true });
    await expect(list.getByText('runtime started').first()).toBeVisible();

    await page.getByLabel('Level').selectOption('error');
    await page.getByLabel('Search logs').fill('matches-no-loquat-line');
    await expect(page.getByText('No lines match')).toBeVisible();
    await expect(page.getByText(/None of the \d+ lines match these filters/)).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByLabel('Search logs')).toHaveValue('');
    await expect(page.getByLabel('Level')).toHaveValue('debug');
    await expect(list.getByText('runtime started').first()).toBeVisible();
  });
});
