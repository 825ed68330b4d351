import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStudioHarness, type StudioHarness } from './testing/studio-harness.ts';

/** A flow on an http connector that asks for any free port (or `port`), loopback unless `host` says otherwise. */
const orders = (reply: string, connector = 'web: {type: http, port: 0}') => `connectors:
  ${connector}
flows:
  price-order:
    source: {type: http, path: /orders/price, methods: [POST]}
    steps:
      - set: {body: '{"reply": "${reply}"}'}
`;

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

describe('a studio used over a day', () => {
  it('gives a port: 0 connector one port, on loopback, and keeps it across saves and restarts', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1') } });
    const first = await harness.backend.api.startIntegration('orders-api');
    const url = first.routes[0].url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/orders\/price$/);
    for (const reply of ['v2', 'v3']) {
      writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), orders(reply));
      const reloaded = await harness.waitForState('orders-api', (s) => s.status === 'running' && (s.serving?.generation ?? 0) > 1 && s.routes.length > 0 && s.generation === (reply === 'v2' ? 2 : 3));
      expect(reloaded.routes[0].url).toBe(url);
      expect(await (await post(url)).json()).toEqual({ reply });
    }
    harness = await harness.restart();
    const again = await harness.waitForState('orders-api', (s) => s.status === 'running');
    expect(again.routes[0].url).toBe(url);
    // The generation goes on from where it was: a restart does not make a second v1.
    expect(again.generation).toBe(4);
    expect(await (await post(url)).json()).toEqual({ reply: 'v3' });
  });

  it('starts again what was running, not what the user stopped, unless told not to', async () => {
    harness = await startStudioHarness({ a: { 'a.yaml': orders('a') }, b: { 'b.yaml': orders('b') } });
    await harness.backend.api.startIntegration('a');
    await harness.backend.api.startIntegration('b');
    await harness.backend.api.stopIntegration('b');
    harness = await harness.restart();
    await harness.waitForState('a', (s) => s.status === 'running');
    expect((await harness.backend.api.runStates()).map((s) => [s.integration, s.status])).toEqual([['a', 'running']]);
    await harness.backend.api.setHistorySettings({ restoreRunning: false });
    harness = await harness.restart();
    expect(await harness.backend.api.runStates()).toEqual([]);
    expect((await harness.backend.api.historyOverview()).settings.restoreRunning).toBe(false);
  });

  it('names our other integration when it holds the port, and moves to the free port offered', async () => {
    harness = await startStudioHarness({ a: { 'a.yaml': orders('a') }, b: { 'b.yaml': orders('b', 'web: {type: http, port: PORT}') } });
    const a = await harness.backend.api.startIntegration('a');
    const port = Number(new URL(a.routes[0].url).port);
    writeFileSync(join(harness.workspaceDir, 'b', 'b.yaml'), orders('b', `web: {type: http, port: ${port}}`));
    const b = await harness.backend.api.startIntegration('b');
    expect(b.status).toBe('failed');
    expect(b.portClash).toEqual({ connector: 'web', port, heldBy: { integration: 'a', connector: 'web' }, remembered: false, suggestion: expect.any(Number) });
    expect(b.reason).toContain(`port ${port} is already in use by integration "a" (its connector "web")`);
    const moved = await harness.backend.api.usePort('b', 'web', b.portClash!.suggestion);
    expect(moved.status).toBe('running');
    expect(await (await post(moved.routes[0].url)).json()).toEqual({ reply: 'b' });
    // The definition says the new port, its flow written as it was.
    expect(await harness.backend.api.readFile('b', 'b.yaml')).toBe(orders('b', `web: {type: http, port: ${b.portClash!.suggestion}}`));
  });
});
