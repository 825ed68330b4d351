import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from './studio-fixture.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';
import { openStudio, startIntegration, writeIntegration } from './requests-helpers.ts';

const run = promisify(execFile);

// A route that takes every method and says which one it got, as WebDAV and cache-purging clients use.
const ODD = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  oddtraffic-any:
    source: {type: http, path: /oddtraffic/any}
    steps:
      - set: {body: '{"method": vars.method}'}
`;

test.describe('the Requests panel with odd traffic, narrow windows and the keyboard', () => {
  test('a captured PROPFIND replays into the composer showing PROPFIND, and sending it again sends PROPFIND', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    writeIntegration(studio.workspaceDir, 'oddtraffic-kit', { 'odd.yaml': ODD });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'oddtraffic-kit');
    const url = state.routes[0].url;
    const sent = await fetch(url, { method: 'PROPFIND' });
    expect(await sent.json()).toEqual({ method: 'PROPFIND' });

    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Captures' }).click();
    await page.getByRole('searchbox', { name: 'Search captures' }).fill('path:/oddtraffic/any');
    await page.getByRole('list', { name: 'Captured requests' }).getByRole('button', { name: /PROPFIND/ }).first().click();
    await page.getByRole('region', { name: /^Capture \d+$/ }).getByRole('button', { name: 'Replay', exact: true }).click();

    const composer = page.getByRole('region', { name: 'Request composer' });
    const method = composer.getByRole('combobox', { name: 'Method' });
    await expect(page.getByRole('region', { name: 'Response' }).getByLabel('Response status')).toHaveText('200');
    // What the composer shows is what it sends: not the first method of its list.
    await expect(method).toHaveValue('PROPFIND');
    await expect(method.locator('option:checked')).toHaveText('PROPFIND');
    await composer.getByRole('button', { name: 'Send' }).click();
    const response = page.getByRole('region', { name: 'Response' });
    await expect(response.getByText(/replay of/)).toHaveCount(0);
    await response.getByRole('button', { name: 'Raw' }).click();
    await expect(response.getByLabel('Response body')).toHaveText('{"method":"PROPFIND"}');
    health.expectNone();
  });

  test('at 1024×700 a captured request’s row keeps its path readable beside a long method and the time', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'oddtraffic-rows', { 'odd.yaml': ODD.replace('oddtraffic-any', 'oddtraffic-rows').replace('/oddtraffic/any', '/oddtraffic/rows') });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'oddtraffic-rows');
    await fetch(state.routes[0].url, { method: 'PROPFIND' });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Captures' }).click();
    await page.getByRole('searchbox', { name: 'Search captures' }).fill('path:/oddtraffic/rows');
    const row = page.getByRole('list', { name: 'Captured requests' }).getByRole('button', { name: /PROPFIND/ }).first();
    await expect(row).toBeVisible();
    // The path is what tells one capture from another: at least ten characters of it stay on screen.
    const path = row.locator('.side-main');
    const tenChars = await path.evaluate((el) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(el).font;
      probe.textContent = '/oddtraffi';
      document.body.append(probe);
      const width = probe.getBoundingClientRect().width;
      probe.remove();
      return width;
    });
    expect((await path.boundingBox())!.width).toBeGreaterThanOrEqual(tenChars - 1);
    await expect(row.locator('.side-time')).toBeInViewport();
    await page.screenshot({ path: 'test-results/e2e-screenshots/requests-capture-rows-1024x700.png' });
  });

  test('a header name pasted with a space around it is sent trimmed; one that cannot be a header name is named before Send', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    writeIntegration(studio.workspaceDir, 'oddtraffic-hdrs', {
      'odd.yaml': `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  oddtraffic-hdrs-echo:
    source: {type: http, path: /oddtraffic/hdrs, headers: [X-Trace]}
    steps:
      - set: {body: '{"trace": "X-Trace" in vars ? vars["X-Trace"] : "none"}'}
`,
    });
    await openStudio(page, studio.url);
    await startIntegration(page, studio.origin, 'oddtraffic-hdrs');
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('button', { name: 'New request to /oddtraffic/hdrs of oddtraffic-hdrs' }).click();
    const composer = page.getByRole('region', { name: 'Request composer' });
    await composer.getByRole('tab', { name: /^Headers/ }).click();
    await composer.getByRole('button', { name: '+ add header' }).click();
    await composer.getByLabel('Headers name 1').fill('X-Trace ');
    await composer.getByLabel('Headers value 1').fill('t-17');
    await composer.getByRole('button', { name: 'Send' }).click();
    const response = page.getByRole('region', { name: 'Response' });
    await expect(response.getByLabel('Response status')).toHaveText('200');
    await response.getByRole('button', { name: 'Raw' }).click();
    await expect(response.getByLabel('Response body')).toHaveText('{"trace":"t-17"}');

    await composer.getByLabel('Headers name 1').fill('X Trace');
    await expect(composer.getByRole('list', { name: 'Before sending' })).toContainText('header name "X Trace" is not valid');
    await expect(composer.getByRole('button', { name: 'Send' })).toBeDisabled();
    await composer.getByLabel('Headers name 1').fill('X-Trace');
    await composer.getByLabel('Headers value 1').fill('smile 🙂');
    await expect(composer.getByRole('list', { name: 'Before sending' })).toContainText('the value of header X-Trace');
    await screenshotsAtBothSizes(page, 'requests-header-problem');
    health.expectNone();
  });

  test('the Environments editor, closed from the keyboard, gives focus back to its button', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await page.getByRole('tab', { name: 'Requests' }).click();
    const toggle = page.getByRole('button', { name: 'Environments…' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const editor = page.getByRole('dialog', { name: 'Environments' });
    await expect(editor.getByRole('button', { name: 'Add environment' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(editor).toHaveCount(0);
    await expect(toggle).toBeFocused();
    // Cancel too, pressed with the keyboard: the next Enter opens the editor again.
    await page.keyboard.press('Enter');
    await editor.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await expect(editor).toHaveCount(0);
    await expect(toggle).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(editor).toBeVisible();
  });

  test('a HEAD request copied as curl runs in a shell and ends with the headers', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'oddtraffic-head', { 'odd.yaml': ODD.replace('oddtraffic-any', 'oddtraffic-head-echo').replace('/oddtraffic/any', '/oddtraffic/head') });
    await openStudio(page, studio.url);
    await startIntegration(page, studio.origin, 'oddtraffic-head');
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('button', { name: 'New request to /oddtraffic/head of oddtraffic-head' }).click();
    const composer = page.getByRole('region', { name: 'Request composer' });
    await composer.getByRole('combobox', { name: 'Method' }).selectOption('HEAD');
    await composer.getByRole('button', { name: 'Copy as curl' }).click();
    const command = (await composer.getByLabel('curl command').textContent())!;
    // The route answers HEAD with a GET's Content-Length and no body; curl must not wait for one.
    const { stdout } = await run('sh', ['-c', `${command} -s --max-time 5`]);
    expect(stdout).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(stdout.toLowerCase()).toContain('content-type: application/json');
  });

  test('a request stopped before any answer says how long it waited, not when headers came', async ({ page, studio }) => {
    // A server that takes the request and never answers, as a hung upstream does.
    const { createServer } = await import('node:http');
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      await openStudio(page, studio.url);
      await page.getByRole('tab', { name: 'Requests' }).click();
      const composer = page.getByRole('region', { name: 'Request composer' });
      await composer.getByRole('combobox', { name: 'Route' }).selectOption({ label: 'Any URL…' });
      await composer.getByRole('textbox', { name: 'URL' }).fill(`http://127.0.0.1:${port}/never`);
      await composer.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByText('waiting for the answer…')).toBeVisible();
      await composer.getByRole('button', { name: 'Stop' }).click();
      const response = page.getByRole('region', { name: 'Response' });
      await expect(response.getByLabel('Response status')).toHaveText('no response');
      await expect(response).toContainText(/stopped after \d+ ms/);
      await expect(response).not.toContainText('headers in');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
