import { expect, test } from './studio-fixture.ts';
import { openStudio, writeIntegration } from './requests-helpers.ts';

const ECHO = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  quince-echo:
    source: {type: http, path: /quince, methods: [POST]}
    steps:
      - set: {body: '{"got": body}'}
`;

const PASSING = `
tests:
  quince echoes what it got:
    flow: quince-echo
    input: {method: POST, path: /quince, body: {a: 1}}
    expect:
      response: {status: 200, body: {got: {a: 1}}}
`;

// A test file someone is half-way through writing: an unclosed flow map.
const BROKEN = `
tests:
  quince half written: {flow: quince-echo
    input: [unclosed
`;

test.describe('the Tests panel with a test file that does not load', () => {
  test('Run all does not say all is well: the summary counts the file that was not loaded, as `flow-studio test` does', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'quince-tests', { 'quince.yaml': ECHO, 'quince.test.yaml': PASSING, 'quince-broken.test.yaml': BROKEN });
    await openStudio(page, studio.url);
    await page.getByRole('tab', { name: 'Tests' }).click();
    await page.getByLabel('Integration').selectOption('quince-tests');
    await expect(page.getByLabel('Tests in quince-broken.test.yaml')).toContainText('YAML syntax');

    await page.getByRole('button', { name: 'Run all' }).click();
    const summary = page.getByRole('status').filter({ hasText: 'passed' });
    await expect(summary).toContainText('1 passed, 0 failed, 1 test file not loaded');
    await expect(summary.locator('strong')).toHaveClass(/error/);
    // Where the problem is reads without a stray space before the colon when it names no setting.
    await expect(page.getByLabel('Tests in quince-broken.test.yaml')).toContainText('quince-broken.test.yaml:3:');
    await expect(page.getByLabel('Tests in quince-broken.test.yaml')).not.toContainText(/:\d+ : YAML syntax/);
  });
});
