import type { Page } from '@playwright/test';
import { call, openStudio, post, runIntegration } from './platform-views-support.ts';
import { expect, test } from './studio-fixture.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

const PING = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  ping:
    source: {type: http, path: /ping, methods: [POST]}
    steps:
      - set: {body: '{"pong": true}'}
`;

/** Pixels of a chart's canvas in a colour (not the grey of its grid and axes): what its series drew. */
async function colouredPixels(page: Page, chart: string): Promise<number> {
  return page.getByRole('figure', { name: chart }).locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60) n++;
    return n;
  });
}

test.describe('Traces charts with few runs in the window', () => {
  test('show one request as a point on the latency chart, not an empty chart', async ({ page, studio }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'clearRuns');
    const routes = await runIntegration(page, studio.origin, 'sparse-ping', PING);
    expect((await post(routes.ping, {})).status).toBe(200);
    await page.getByRole('tab', { name: 'Traces' }).click();
    await page.getByRole('tab', { name: 'Charts' }).click();
    await expect(page.getByLabel('Over the window')).toContainText(/^1 run · /);
    // The charts ask every second; the point is there once a draw has the run.
    await expect.poll(() => colouredPixels(page, 'Latency'), { timeout: 5_000 }).toBeGreaterThan(10);
    await screenshotsAtBothSizes(page, 'charts-one-request');
  });
});
