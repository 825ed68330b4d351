import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PausedRunView } from '../../../shared/debugger-types.ts';
import { startPlatformServer, type PlatformServer } from '../../platform/index.ts';
import type { Runtime } from '../core/runtime.ts';
import { registry } from '../registry.ts';
import { runtimeOn } from '../services/testing/runtime-on-platform.ts';
import { DebugSession } from './debug-session.ts';
import { DefinitionSteps, registryChainShapes } from './definition-steps.ts';

// Line 7: the lock; 10 and 11: its steps; 12: the step that fails; 14: the error chain's step.
const FLOW = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  settle:
    source: {type: http, path: /settle}
    steps:
      - lock:
          name: '"ledger"'
          steps:
            - set: {vars: {inside: 'true'}}
            - set: {vars: {total: 'body.qty * 2'}}
      - set: {body: '{"total": vars.total, "deeper": body.missing.deeper}'}
    onError:
      - set: {vars: {httpStatus: '502'}, body: '{"failed": vars.error.step, "total": vars.total}'}
`;

let dir: string;
let platform: PlatformServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-step-into-'));
  platform = await startPlatformServer({ dataDir: join(dir, 'p') });
});
afterAll(async () => {
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The flow on the platform with a debug session attached; `next()` resolves with the next pause. */
async function debugged(): Promise<{ runtime: Runtime; session: DebugSession; url: string; next(): Promise<PausedRunView>; stop(): Promise<void> }> {
  const r = await runtimeOn(platform, FLOW);
  const session = new DebugSession();
  const steps = new DefinitionSteps([{ file: 'flows.yaml', text: FLOW }], registryChainShapes(registry));
  const detach = session.attach(r.runtime, { locate: steps.locate });
  const waiting: Array<(p: PausedRunView) => void> = [];
  session.listen({ paused: (p) => waiting.shift()?.(p) });
  return {
    runtime: r.runtime,
    session,
    url: String(r.runtime.describe().connectors[0].details?.url),
    next: () => new Promise((resolve) => waiting.push(resolve)),
    stop: async () => {
      detach();
      await r.stop();
    },
  };
}

describe('step into', () => {
  it('goes into a lock’s steps (held meanwhile), out of them, and into the error chain when the step fails', async () => {
    const d = await debugged();
    try {
      d.session.setBreakpoints([{ id: 1, step: 'flows.settle.steps[0]' }]);
      let pausing = d.next();
      const answered = fetch(`${d.url}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ qty: 21 }) });
      let p = await pausing;
      expect(p.frames.map((f) => [f.step, f.line])).toEqual([['flows.settle.steps[0]', 7]]);

      pausing = d.next();
      d.session.resume(p.thread, 'stepIn', 'test');
      p = await pausing;
      expect(p.frames.map((f) => [f.step, f.line, f.block])).toEqual([
        ['flows.settle.steps[0].lock.steps[0]', 10, 'set'],
        ['flows.settle.steps[0]', 7, 'lock'],
      ]);
      // Paused inside the lock, the run holds it: another holder would wait.
      const ledgerHeld = async () => (await platform.inspect.leases.claims()).some((c) => c.kind === 'lease' && c.name.endsWith('ledger'));
      expect(await ledgerHeld()).toBe(true);

      pausing = d.next();
      d.session.resume(p.thread, 'stepOut', 'test');
      p = await pausing;
      expect(p.frames.map((f) => f.step)).toEqual(['flows.settle.steps[1]']);
      expect(await ledgerHeld()).toBe(false);
      expect(await d.session.evaluate(p.thread, 'vars.total')).toBe(42);

      // This step fails (body.missing): step into goes on into the error chain, with the error to read.
      pausing = d.next();
      d.session.resume(p.thread, 'stepIn', 'test');
      p = await pausing;
      expect(p.frames.map((f) => [f.step, f.line])).toEqual([['flows.settle.onError[0]', 14]]);
      expect(await d.session.evaluate(p.thread, 'vars.error.step')).toBe('flows.settle.steps[1]');
      d.session.resume(p.thread, 'continue', 'test');
      const res = await answered;
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ failed: 'flows.settle.steps[1]', total: 42 });
    } finally {
      await d.stop();
    }
  });
});
