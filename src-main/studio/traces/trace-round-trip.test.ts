import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { isTraceSpan, traceEntrySchema, type TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import { STEP_FIELDS, pickFields, type TraceRecord } from '../../../shared/trace-record.ts';
import { CALL_FIELDS, type TraceSpan } from '../../../shared/trace-span.ts';
import { startPlatformServer } from '../../platform/index.ts';
import { startRuntime } from '../../runtime/index.ts';
import { runDetailView } from './run-detail.ts';
import { RunStore } from './run-store.ts';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// A step that calls the platform (a span under it) between two that do not; the last fails.
const orders = `flows:
  orders:
    steps:
      - set: {body: '{"id": body.id, "n": body.n}'}
      - kv-put: {key: '"orders/" + string(body.id)', value: body}
      - set: {body: 'body.ok ? body : body.missing.field'}
`;

describe('a trace from the runtime through the platform to the studio', () => {
  it('keeps every field of every record and of every call a step made, in one shape at every hop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-trace-round-trip-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const platform = await startPlatformServer({ dataDir });
    cleanups.push(() => platform.close());
    // What the platform relays to listeners in its process, as the route checked it.
    const relayed: TraceEntry[] = [];
    const stopFeed = platform.events.subscribe((e) => {
      if (e.type === 'traces') relayed.push(...e.records);
    });
    cleanups.push(stopFeed);
    const started = await startRuntime({
      definitions: [{ file: 'flows.yaml', text: orders }],
      variables: {},
      platform: { url: platform.url, token: platform.token, discoveryBudgetMs: 2000 },
      identity: { deploymentId: 'orders', instanceId: 'o-1' },
      traceEveryRun: true,
    });
    cleanups.push(() => started.stop());
    // What the runtime's hub emitted, snapshots on (the message before and after each step travels too).
    const emitted: TraceEntry[] = [];
    cleanups.push(started.runtime.traces.add({ snapshots: true, emit: (e) => emitted.push(e), span: (s) => emitted.push(s), serverSpans: false }));

    await started.runtime.run('orders', { id: 1, n: [1, 2], ok: true });
    await started.runtime.run('orders', { id: 2, n: [], ok: false });
    for (const deadline = Date.now() + 10_000; relayed.length < emitted.length && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));

    // Runtime → platform: each entry passes the schema its kind picks, and is stored and relayed as emitted.
    const asJson = (entries: readonly unknown[]): unknown => JSON.parse(JSON.stringify(entries));
    const calls = emitted.filter((e): e is TraceSpan => e.kind === 'platform');
    const records = emitted.filter((e): e is TraceRecord => !isTraceSpan(e));
    expect(calls).toHaveLength(2);
    expect(emitted.filter((e) => e.kind === 'run')).toHaveLength(2);
    for (const entry of emitted) expect([...Value.Errors(traceEntrySchema(entry), entry)].map((e) => `${e.path} ${e.message}`)).toEqual([]);
    const stored = (await platform.traces.list({ limit: 100 })).map((t) => t.record).reverse();
    expect(stored).toEqual(asJson(emitted));
    expect(asJson(relayed)).toEqual(asJson(emitted));
    expect(calls.every((c) => c.deployment === 'orders' && c.instance === 'o-1' && c.traceId && c.spanId && c.parentSpanId)).toBe(true);

    // Platform → studio: the run store takes what the platform relayed, and each run's view keeps
    // the fields of its steps and of the call under the kv-put step.
    const store = new RunStore();
    for (const entry of relayed) {
      if (isTraceSpan(entry)) store.recordSpan('orders', entry);
      else store.record('orders', entry);
    }
    for (const run of records.filter((e) => e.kind === 'run')) {
      const kept = store.detail(run.runId);
      const view = runDetailView(kept!.summary, kept!.detail);
      const steps = records.filter((e) => e.kind === 'step' && e.runId === run.runId);
      expect(view.steps.map((s) => s.step)).toEqual(steps.map((s) => s.step));
      expect(kept!.detail!.steps).toEqual(steps.map((s) => ({ step: s.step, ...pickFields(s, STEP_FIELDS) })));
      const call = calls.find((c) => c.runId === run.runId)!;
      const putStep = view.steps.find((s) => s.block === 'kv-put')!;
      expect(putStep.calls).toEqual([pickFields(call, CALL_FIELDS)]);
      expect(Object.keys(putStep.calls[0])).toEqual(expect.arrayContaining(['kind', 'name', 'startedAt', 'durationMs', 'detail']));
    }
  });
});
