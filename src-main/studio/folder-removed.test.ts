import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStudioHarness, type StudioHarness } from './testing/studio-harness.ts';

const orders = `connectors:
  web: {type: http, port: 0}
flows:
  price-order:
    source: {type: http, path: /orders/price, methods: [POST]}
    steps:
      - set: {body: '{"reply": "v1"}'}
`;

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('an integration folder removed under the studio', () => {
  it('stops serving it and says why, rather than serving on with no card to stop it', async () => {
    harness = await startStudioHarness({ 'orders-gone': { 'orders.yaml': orders } });
    const started = await harness.backend.api.startIntegration('orders-gone');
    const url = started.routes[0].url;
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(200);

    rmSync(join(harness.workspaceDir, 'orders-gone'), { recursive: true });
    const stopped = await harness.waitForState('orders-gone', (s) => s.status === 'stopped');
    expect(stopped.reason).toBe('its folder orders-gone is no longer in the workspace');
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect((await harness.backend.api.listIntegrations()).map((i) => i.id)).not.toContain('orders-gone');
  });

  it("keeps the reason in the studio's logs, which outlive the card that left with the folder", async () => {
    harness = await startStudioHarness({ 'orders-gone': { 'orders.yaml': orders } });
    await harness.backend.api.startIntegration('orders-gone');
    rmSync(join(harness.workspaceDir, 'orders-gone'), { recursive: true });
    await harness.waitForState('orders-gone', (s) => s.status === 'stopped');
    const lines = await harness.backend.api.queryLogs({ limit: 100 });
    const line = lines.find((l) => l.integration === 'orders-gone' && l.log.msg.includes('no longer in the workspace'));
    expect(line?.log).toMatchObject({ level: 'warn', msg: 'stopped: its folder orders-gone is no longer in the workspace' });
  });
});
