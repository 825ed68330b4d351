import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './studio-fixture.ts';
import { openStudio } from './requests-helpers.ts';
import { post, runIntegration } from './platform-views-support.ts';

/** An upstream that answers every request after `ms`: the slow service the run waits on. */
async function slowUpstream(ms: number): Promise<{ port: number; server: Server }> {
  const server = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), ms);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, server };
}

test.describe('Traces run list with runs that take seconds', () => {
  test('says a slow run’s duration in seconds, whole in its column at 1024x700, rather than “1500.3 ms” cut at the edge', async ({ page, studio }) => {
    const upstream = await slowUpstream(1_500);
    try {
      await page.setViewportSize({ width: 1024, height: 700 });
      await openStudio(page, studio.url);
      const routes = await runIntegration(
        page,
        studio.origin,
        'tortoise-calls',
        `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  upstream: {type: http-client, baseURL: 'http://127.0.0.1:${upstream.port}', timeout: 30s}
flows:
  tortoise-wait:
    source: {type: http, path: /tortoise, methods: [POST]}
    steps:
      - rest: {connector: upstream, path: /slow}
`,
      );
      expect((await post(routes['tortoise-wait'], {})).status).toBe(200);
      await page.getByRole('tab', { name: 'Traces' }).click();
      await page.getByLabel('Flow').selectOption('tortoise-wait');
      const duration = page.getByRole('table', { name: 'Runs' }).locator('.run-row .duration').first();
      await expect(duration).toHaveText(/^1\.\d\d s$/);
      // Whole in its cell: not cut with an ellipsis.
      expect(await duration.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await page.screenshot({ path: 'test-results/e2e-screenshots/traces-long-run-1024.png' });
    } finally {
      await new Promise((r) => upstream.server.close(r));
    }
  });
});
