import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './studio-fixture.ts';
import { openStudio, writeIntegration } from './flows-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

const definition = (port: number) => `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  users:
    type: http-client
    baseURL: http://127.0.0.1:${port}/api
    headers: {Accept: application/json}
    auth: {type: bearer, token: e2e-upstream-token-123}
flows:
  user:
    source: {type: http, path: "/users/{id}", methods: [GET]}
    steps:
      - name: fetch the user
        rest: {connector: users, path: /people, query: {id: vars.id}, failOnError: false}
`;

test.describe('the outbound HTTP exchange in a trace', () => {
  let upstream: Server;
  let port = 0;
  test.beforeAll(async ({ studio }) => {
    // The user service is down for maintenance: 503 with a Retry-After and a JSON reason.
    upstream = createServer((req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '120', 'x-upstream': 'people' });
      res.end(JSON.stringify({ error: 'maintenance', path: req.url }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    port = (upstream.address() as AddressInfo).port;
    writeIntegration(studio.workspaceDir, 'e2e-users', { 'users.yaml': definition(port) });
  });
  test.afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

  test('a rest span shows method, URL, status, headers (credential masked) and bodies, and a 503 is drawn failed', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-users' });
    await card.getByRole('button', { name: 'Run e2e-users' }).click();
    await expect(card.getByRole('status', { name: 'e2e-users is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!.replace('{id}', '42');
    await page.getByRole('tab', { name: 'Traces' }).click();
    const answered = await fetch(url);
    expect(answered.status, await answered.clone().text()).toBe(200);

    // The run list shows the path that was asked for, not the route's template.
    const row = page.locator('.trace-row[data-flow="user"][data-kind="run"]').first();
    await expect(row.locator('.cell.route')).toHaveText('GET /users/42');
    await expect(row.locator('.cell.route')).toHaveAttribute('title', /route \/users\/\{id\}/);
    await row.click();

    const call = page.getByRole('list', { name: 'Steps' }).locator('.waterfall-call');
    await expect(call).toHaveAttribute('data-outcome', 'failed');
    await expect(call).toHaveAttribute('data-call-status', '503');
    const bar = call.locator('.waterfall-bar');
    await expect(bar).toHaveClass(/outcome-failed/);
    expect(await bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      await page.evaluate(() => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--bad)';
        document.querySelector('.app')!.append(probe);
        const c = getComputedStyle(probe).color;
        probe.remove();
        return c;
      }),
    );

    await page.getByRole('list', { name: 'Steps' }).locator('[data-block="rest"]').click();
    const exchange = page.getByRole('group', { name: `HTTP exchange GET http://127.0.0.1:${port}/api/people?id=42` });
    await exchange.locator('summary').click();
    await expect(exchange.locator('summary')).toHaveText(`GET http://127.0.0.1:${port}/api/people?id=42 → 503`);
    const sent = exchange.getByRole('table', { name: 'Request headers' });
    await expect(sent.getByRole('row', { name: /^authorization/ })).toContainText('[redacted]');
    await expect(sent.getByRole('row', { name: /^accept/ })).toContainText('application/json');
    await expect(exchange).not.toContainText('e2e-upstream-token-123');
    const got = exchange.getByRole('table', { name: 'Response headers' });
    await expect(got.getByRole('row', { name: /^retry-after/ })).toContainText('120');
    await expect(got.getByRole('row', { name: /^x-upstream/ })).toContainText('people');
    await expect(exchange.getByLabel('Response body')).toContainText('"error":"maintenance"');
    await screenshotsAtBothSizes(page, 'traces-http-exchange');

    await page.getByRole('tab', { name: 'Flows' }).click();
    await card.getByRole('button', { name: 'Stop e2e-users' }).click();
    health.expectNone();
  });
});
