import { describe, expect, it } from 'vitest';
import type { FeedOutcome, TraceFeedEvent } from '../../../shared/feed-events.ts';
import { emptyRunStats, foldTraces, statsKey } from './run-stats.ts';

const step = (runId: string, path: string, outcome: FeedOutcome = 'completed', input?: unknown): TraceFeedEvent => ({
  kind: 'trace',
  at: 1,
  integration: 'shop',
  trace: { kind: 'step', flow: 'f', correlationId: `c-${runId}`, runId, step: path, startedAt: 1, durationMs: 1, outcome, ...(input ? { input } : {}) },
});
const run = (runId: string, outcome: FeedOutcome = 'completed'): TraceFeedEvent => ({
  kind: 'trace',
  at: 2,
  integration: 'shop',
  trace: { kind: 'run', flow: 'f', correlationId: `c-${runId}`, runId, startedAt: 1, durationMs: 1, outcome },
});

describe('run stats from traces', () => {
  it('counts per step and per flow how many messages passed, failed and were dropped', () => {
    const open = new Map();
    let stats = foldTraces(emptyRunStats(), [step('r1', 'flows.f.steps[0]'), step('r1', 'flows.f.steps[1]', 'dropped'), run('r1', 'dropped')], open);
    stats = foldTraces(stats, [step('r2', 'flows.f.steps[0]', 'failed'), run('r2', 'failed')], open);
    expect(stats.steps[statsKey('shop', 'flows.f.steps[0]')]).toEqual({ completed: 1, failed: 1, dropped: 0 });
    expect(stats.steps[statsKey('shop', 'flows.f.steps[1]')]).toEqual({ completed: 0, failed: 0, dropped: 1 });
    expect(stats.runs[statsKey('shop', 'f')]).toEqual({ completed: 0, failed: 1, dropped: 1 });
    expect(open.size).toBe(0);
  });

  it('remembers the path the last message of each flow took, even when batches split a run', () => {
    const open = new Map();
    let stats = foldTraces(emptyRunStats(), [step('r1', 'flows.f.steps[0]'), step('r1', 'flows.f.steps[0].switch.cases[1].steps[0]')], open);
    stats = foldTraces(stats, [step('r1', 'flows.f.steps[1]'), run('r1')], open);
    expect(stats.lastRun[statsKey('shop', 'f')]).toMatchObject({
      runId: 'r1',
      outcome: 'completed',
      steps: { 'flows.f.steps[0]': 'completed', 'flows.f.steps[0].switch.cases[1].steps[0]': 'completed', 'flows.f.steps[1]': 'completed' },
    });
  });

  it('keeps the last message each step saw when traces carry snapshots', () => {
    const stats = foldTraces(emptyRunStats(), [step('r1', 'flows.f.steps[0]', 'completed', { body: { a: 1 }, vars: { id: '7' } })], new Map());
    expect(stats.lastInput[statsKey('shop', 'flows.f.steps[0]')]).toEqual({ body: { a: 1 }, vars: { id: '7' }, correlationID: 'c-r1' });
  });
});
