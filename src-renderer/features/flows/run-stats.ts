import type { FeedOutcome, TraceFeedEvent } from '../../../shared/feed-events.ts';
import type { CelSample } from '../../../shared/flow-design.ts';

export interface OutcomeCounts {
  completed: number;
  failed: number;
  dropped: number;
}

/** The steps the last message of a flow went through, with each step's outcome. */
export interface LastRun {
  runId: string;
  outcome: FeedOutcome;
  at: number;
  steps: Record<string, FeedOutcome>;
}

/**
 * What the graph shows after runs: per step and per flow how many messages passed, failed or
 * were dropped, the path of each flow's last message, and the last message each step saw (when
 * traces carry snapshots) for the CEL playground. Keys are `<integration> <path or flow>`.
 */
export interface FlowRunStats {
  steps: Record<string, OutcomeCounts>;
  runs: Record<string, OutcomeCounts>;
  lastRun: Record<string, LastRun>;
  lastInput: Record<string, CelSample>;
}

export const emptyRunStats = (): FlowRunStats => ({ steps: {}, runs: {}, lastRun: {}, lastInput: {} });

export const statsKey = (integration: string, pathOrFlow: string): string => `${integration} ${pathOrFlow}`;

/** Step outcomes of runs whose run event has not arrived yet (steps are traced first). */
const MAX_OPEN_RUNS = 2_000;

/**
 * Folds trace events into the stats. Returns a new object (for the store) with copies of only
 * the maps that changed; `open` carries the steps of unfinished runs between calls.
 */
export function foldTraces(stats: FlowRunStats, events: readonly TraceFeedEvent[], open: Map<string, Record<string, FeedOutcome>>): FlowRunStats {
  if (events.length === 0) return stats;
  const next: FlowRunStats = { steps: { ...stats.steps }, runs: { ...stats.runs }, lastRun: stats.lastRun, lastInput: stats.lastInput };
  let lastRun: Record<string, LastRun> | undefined;
  let lastInput: Record<string, CelSample> | undefined;
  for (const e of events) {
    const t = e.trace;
    const integration = e.integration ?? '';
    const runKey = `${integration} ${t.runId}`;
    if (t.kind === 'step' && t.step) {
      const key = statsKey(integration, t.step);
      next.steps[key] = bump(next.steps[key], t.outcome);
      let steps = open.get(runKey);
      if (!steps) {
        if (open.size >= MAX_OPEN_RUNS) open.delete(open.keys().next().value!);
        open.set(runKey, (steps = {}));
      }
      steps[t.step] = t.outcome;
      if (isSnapshot(t.input)) (lastInput ??= { ...stats.lastInput })[key] = { body: t.input.body, vars: t.input.vars, correlationID: t.correlationId };
    } else if (t.kind === 'run') {
      const key = statsKey(integration, t.flow);
      next.runs[key] = bump(next.runs[key], t.outcome);
      (lastRun ??= { ...stats.lastRun })[key] = { runId: t.runId, outcome: t.outcome, at: e.at, steps: open.get(runKey) ?? {} };
      open.delete(runKey);
      if (isSnapshot(t.input)) (lastInput ??= { ...stats.lastInput })[key] = { body: t.input.body, vars: t.input.vars, correlationID: t.correlationId };
    }
  }
  if (lastRun) next.lastRun = lastRun;
  if (lastInput) next.lastInput = lastInput;
  return next;
}

function bump(c: OutcomeCounts | undefined, outcome: FeedOutcome): OutcomeCounts {
  const n = c ? { ...c } : { completed: 0, failed: 0, dropped: 0 };
  n[outcome]++;
  return n;
}

function isSnapshot(v: unknown): v is { body: unknown; vars: Record<string, unknown> } {
  return typeof v === 'object' && v !== null && 'vars' in v && typeof (v as { vars: unknown }).vars === 'object';
}
