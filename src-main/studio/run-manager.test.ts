import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heldInTestWait, startStudioHarness, type StudioHarness } from './testing/studio-harness.ts';

/** Resolves once the request is inside the flow's test-wait step: in flight, not on its way. */
async function inFlight(): Promise<void> {
  for (const deadline = Date.now() + 10_000; heldInTestWait() === 0; await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > deadline) throw new Error('the request never reached the flow within 10 s');
  }
}

const orders = (reply: string, waitMs = 0, port = 0) => `connectors:
  web: {type: http, host: 127.0.0.1, port: ${port}}
flows:
  price-order:
    source: {type: http, path: /orders/price, methods: [POST]}
    steps:
${waitMs ? `      - test-wait: {ms: ${waitMs}}\n` : ''}      - set: {body: '{"reply": "${reply}"}'}
`;

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

describe('the run manager', () => {
  it('starts an integration in one call: running, with its route URL, answering requests', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1') } });
    const state = await harness.backend.api.startIntegration('orders-api');
    expect(state).toMatchObject({ integration: 'orders-api', status: 'running', problems: [], generation: 1 });
    expect(state.routes).toEqual([{ flow: 'price-order', path: '/orders/price', methods: ['POST'], url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/orders\/price$/) }]);
    expect(harness.states.map((s) => s.status)).toEqual(['starting', 'running']);
    expect(await (await post(state.routes[0].url)).json()).toEqual({ reply: 'v1' });
  });

  it('wires the runtime to the embedded platform through the delegation API', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1') } });
    await harness.backend.api.startIntegration('orders-api');
    const started = await harness.waitForFeed((e) => e.kind === 'log' && e.log.msg === 'runtime started');
    expect(started.kind === 'log' && String(started.log.fields.services)).toMatch(/^api/);
  });

  it('shows load problems with file:line:col, and starts once the saved file is fixed', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1').replace('set: {body:', 'set: {bodee:') } });
    const failed = await harness.backend.api.startIntegration('orders-api');
    expect(failed.status).toBe('failed');
    expect(failed.problems).toEqual([{ file: 'orders.yaml', line: 7, col: 15, path: 'flows.price-order.steps[0].set.bodee', message: 'unknown setting "bodee"; did you mean "body"?' }]);
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), orders('fixed'));
    const running = await harness.waitForState('orders-api', (s) => s.status === 'running');
    expect(await (await post(running.routes[0].url)).json()).toEqual({ reply: 'fixed' });
  });

  it('names the port, the connector and where it is declared when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1', 0, port) } });
      const state = await harness.backend.api.startIntegration('orders-api');
      expect(state.status).toBe('failed');
      expect(state.reason).toBe(`port ${port} is already in use by another program: connector "web"'s port cannot be bound; use port ${state.portClash?.suggestion} instead`);
      expect(state.problems).toEqual([expect.objectContaining({ file: 'orders.yaml', line: 2, col: 3, path: 'connectors.web.port' })]);
      expect(state.portClash).toEqual({ connector: 'web', port, remembered: false, suggestion: expect.any(Number) });
      // Taking the offer writes the port into the definition and starts it there.
      const moved = await harness.backend.api.usePort('orders-api', 'web', state.portClash!.suggestion);
      expect(moved).toMatchObject({ status: 'running' });
      expect(moved.routes[0].url).toBe(`http://127.0.0.1:${state.portClash!.suggestion}/orders/price`);
      expect(await harness.backend.api.readFile('orders-api', 'orders.yaml')).toContain(`port: ${state.portClash!.suggestion}`);
    } finally {
      blocker.close();
    }
  });

  it('reloads a running flow when its file changes on disk, while a long request in flight still completes', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1', 800) } });
    const first = await harness.backend.api.startIntegration('orders-api');
    const requesting = post(first.routes[0].url);
    await inFlight();
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), orders('v2'));
    const reloaded = await harness.waitForState('orders-api', (s) => s.status === 'running' && s.generation === 2);
    const old = await requesting;
    expect(old.status).toBe(200);
    expect(await old.json()).toEqual({ reply: 'v1' });
    expect(await (await post(reloaded.routes[0].url)).json()).toEqual({ reply: 'v2' });
  });

  it('reloads onto the same fixed port, so the route URL stays the same', async () => {
    const probe: Server = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1', 0, port) } });
    const first = await harness.backend.api.startIntegration('orders-api');
    expect(await (await post(first.routes[0].url)).json()).toEqual({ reply: 'v1' });
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), orders('v2', 0, port));
    const reloaded = await harness.waitForState('orders-api', (s) => s.generation === 2 && s.status !== 'starting');
    expect(reloaded.status).toBe('running');
    expect(reloaded.routes[0].url).toBe(first.routes[0].url);
    expect(await (await post(first.routes[0].url)).json()).toEqual({ reply: 'v2' });
  });

  it('keeps the previous version running when a saved change does not load, and says why', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1') } });
    const first = await harness.backend.api.startIntegration('orders-api');
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), 'flows: [oops');
    const kept = await harness.waitForState('orders-api', (s) => s.problems.length > 0);
    expect(kept.status).toBe('running');
    expect(kept.reason).toMatch(/^the saved change was not loaded, still running the previous version/);
    expect(kept.problems[0]).toMatchObject({ file: 'orders.yaml', line: 1 });
    expect(await (await post(first.routes[0].url)).json()).toEqual({ reply: 'v1' });
  });

  it('reloads nothing when a file is written with what it already held, and reloads when it changes', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1'), 'env/local.env': 'REGION=eu\n' } });
    const first = await harness.backend.api.startIntegration('orders-api');
    const h = harness;
    const reported = (file: string): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${file} was not reported within 10 s`)), 10_000);
        const off = h.backend.on('workspace', (w) => {
          if (!w.changed.some((c) => c.file === file)) return;
          clearTimeout(timer);
          off();
          resolve();
        });
      });
    // A save without edits (and a touched env file): reported by the watcher, but nothing runs differently.
    const unchanged = reported('orders.yaml');
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), orders('v1'));
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'env', 'local.env'), 'REGION=eu\n');
    await unchanged;
    // Queued behind the watcher's decision, so it answers after it.
    const after = await harness.backend.api.startIntegration('orders-api');
    expect(after).toMatchObject({ status: 'running', generation: first.generation });
    expect(harness.states.filter((s) => s.integration === 'orders-api').map((s) => s.generation)).toEqual([1, 1]);
    // A real change reloads, once.
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), orders('v2'));
    const reloaded = await harness.waitForState('orders-api', (s) => s.status === 'running' && s.generation === 2);
    expect(await (await post(reloaded.routes[0].url)).json()).toEqual({ reply: 'v2' });
  });

  it('stops: in-flight requests finish, the port is released, a later save does not start it', async () => {
    harness = await startStudioHarness({ 'orders-api': { 'orders.yaml': orders('v1', 300) } });
    const { routes } = await harness.backend.api.startIntegration('orders-api');
    const requesting = post(routes[0].url);
    await inFlight();
    const stopped = await harness.backend.api.stopIntegration('orders-api');
    expect(stopped).toMatchObject({ status: 'stopped', routes: [] });
    expect((await requesting).status).toBe(200);
    await expect(post(routes[0].url)).rejects.toThrow();
    const statesBefore = harness.states.length;
    const h = harness;
    // Wait for the watcher to report the save: the run manager decides on it as it is reported.
    const seen = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the save was not reported within 10 s')), 10_000);
      const off = h.backend.on('workspace', (w) => {
        if (!w.changed.some((c) => c.file === 'orders.yaml')) return;
        clearTimeout(timer);
        off();
        resolve();
      });
    });
    writeFileSync(join(harness.workspaceDir, 'orders-api', 'orders.yaml'), orders('v2'));
    await seen;
    await new Promise((r) => setImmediate(r));
    expect(harness.states.slice(statesBefore)).toEqual([]);
    expect((await harness.backend.api.runStates())[0].status).toBe('stopped');
  });
});
