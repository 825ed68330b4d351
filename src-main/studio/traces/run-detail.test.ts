import { describe, expect, it } from 'vitest';
import type { RunDetail, RunStep } from '../../../shared/trace-types.ts';
import { compareRuns } from './run-compare.ts';
import { orderSteps, runDetailView } from './run-detail.ts';
import type { StoredStep } from './run-store.ts';
import { viewOf } from './value-view.ts';
import { SecretRedactor } from '../../runtime/index.ts';

const stored = (step: string, startedAt: number, durationMs: number, block = 'set'): StoredStep => ({ step, block, startedAt, durationMs, outcome: 'completed' });

describe('a run as a waterfall', () => {
  it('reads a nested step after its parent, though the parent finished (and was recorded) last', () => {
    // Recorded in the order steps finish: the switch's case step before the switch itself.
    const steps = [stored('flows.f.steps[0]', 1, 1), stored('flows.f.steps[1].cases[0].steps[0]', 2, 1), stored('flows.f.steps[1]', 2, 2, 'switch'), stored('flows.f.steps[2]', 2, 1)];
    expect(orderSteps(steps).map((s) => [s.stored.step, s.depth])).toEqual([
      ['flows.f.steps[0]', 0],
      ['flows.f.steps[1]', 0],
      ['flows.f.steps[1].cases[0].steps[0]', 1],
      ['flows.f.steps[2]', 0],
    ]);
  });

  it('puts each call under the step that was running when it started, and marks platform blocks', () => {
    const summary = { runId: 'r', integration: 'i', flow: 'f', correlationId: 'c', outcome: 'completed' as const, startedAt: 100, durationMs: 50, steps: 2 };
    const view = runDetailView(summary, {
      steps: [stored('flows.f.steps[0]', 100, 30, 'rest'), stored('flows.f.steps[1]', 131, 10, 'kv-get')],
      calls: [{ kind: 'http', flow: 'f', runId: 'r', correlationId: 'c', name: 'GET http://x/items', startedAt: 105, durationMs: 20, status: 200 }],
      snapshots: false,
      bytes: 0,
    });
    expect(view.steps.map((s) => [s.category, s.calls.length])).toEqual([
      ['http', 1],
      ['platform', 0],
    ]);
  });

  it('puts a platform call under the step that made it, not the step before it that started in the same millisecond', () => {
    const summary = { runId: 'r', integration: 'i', flow: 'f', correlationId: 'c', outcome: 'completed' as const, startedAt: 100, durationMs: 2, steps: 2 };
    const steps = [
      { ...stored('flows.f.steps[0]', 100, 0.01, 'set'), spanId: 's0' },
      { ...stored('flows.f.steps[1]', 100, 0.8, 'kv-put'), spanId: 's1' },
    ];
    const kvPut = { kind: 'platform' as const, flow: 'f', runId: 'r', correlationId: 'c', name: 'kv.put', startedAt: 100, durationMs: 0.7 };
    const placed = (withParent: boolean) =>
      runDetailView(summary, { steps, calls: [withParent ? { ...kvPut, parentSpanId: 's1' } : kvPut], snapshots: false, bytes: 0 }).steps.map((s) => [s.block, s.calls.map((c) => c.name)]);
    expect(placed(true)).toEqual([
      ['set', []],
      ['kv-put', ['kv.put']],
    ]);
    // Without span ids (runs stored before them), the platform block still wins the tie.
    expect(placed(false)).toEqual(placed(true));
  });

  it('cuts long strings and lists for display, naming where the whole value is', () => {
    const v = viewOf({ note: 'y'.repeat(5_000), items: Array.from({ length: 500 }, (_, i) => i) }, ['body']) as Record<string, { $truncated: { length: number; path: unknown[] } }>;
    expect(v.note.$truncated).toMatchObject({ length: 5_000, path: ['body', 'note'] });
    expect(v.items.$truncated).toMatchObject({ length: 500, path: ['body', 'items'] });
  });
});

const TRUNCATED = '[truncated]';

describe('a step whose message was too large for the secret redactor', () => {
  it('says its After was cut, rather than showing an empty message (body null, vars {}) it never had', () => {
    // The redactor walks at most REDACT_MAX_NODES values of a record: a 30,000-row body in the
    // step's input uses them all, and the output is recorded as the TRUNCATED string.
    const redactor = new SecretRedactor();
    redactor.add('a-declared-secret');
    const rows = Array.from({ length: 30_000 }, (_, i) => ({ i, s: 'y' }));
    const event = redactor.redactValue({ input: { body: { rows }, vars: { method: 'POST' } }, output: { body: { got: rows }, vars: { method: 'POST' } } }) as { output: unknown };
    expect(event.output).toBe(TRUNCATED);

    const summary = { runId: 'r', integration: 'i', flow: 'f', correlationId: 'c', outcome: 'completed' as const, startedAt: 100, durationMs: 5, steps: 1 };
    const step = { ...stored('flows.f.steps[0]', 100, 5), input: { body: { rows: [] }, vars: TRUNCATED }, output: event.output };
    const view = runDetailView(summary, { steps: [step], calls: [], snapshots: true, bytes: 0 });
    expect(view.steps[0].output).toEqual({ body: TRUNCATED, vars: TRUNCATED });
  });
});

describe('comparing two runs', () => {
  const s = (step: string, output: unknown, outcome: RunStep['outcome'] = 'completed'): RunStep => ({ index: 0, step, depth: 0, category: 'block', startedAt: 0, durationMs: 1, outcome, calls: [], output: { body: output, vars: {} } });
  const detail = (runId: string, startedAt: number, steps: RunStep[]): RunDetail => ({
    summary: { runId, integration: 'i', flow: 'f', correlationId: runId, outcome: 'completed', startedAt, durationMs: 1, steps: steps.length },
    steps,
    snapshots: true,
  });

  it('matches steps by path, shows a branch only one run took, and puts the earlier run first', () => {
    const before = detail('a', 1, [s('flows.f.steps[0]', 1), s('flows.f.steps[1].cases[0].steps[0]', 'x'), s('flows.f.steps[2]', 3)]);
    const after = detail('b', 2, [s('flows.f.steps[0]', 1), s('flows.f.steps[1].cases[1].steps[0]', 'y'), s('flows.f.steps[2]', 4)]);
    const cmp = compareRuns(after, before);
    expect(cmp.a.runId).toBe('a');
    expect(cmp.steps.map((r) => [r.step, r.a !== undefined, r.b !== undefined, r.same])).toEqual([
      ['flows.f.steps[0]', true, true, true],
      ['flows.f.steps[1].cases[0].steps[0]', true, false, false],
      ['flows.f.steps[1].cases[1].steps[0]', false, true, false],
      ['flows.f.steps[2]', true, true, false],
    ]);
  });
});
