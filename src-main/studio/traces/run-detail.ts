import type { MessageSnapshot, RunCall, RunDetail, RunStep, RunSummary } from '../../../shared/trace-types.ts';
import { pickFields } from '../../../shared/trace-record.ts';
import { CALL_FIELDS } from '../../../shared/trace-span.ts';
import { type TraceSpan } from '../../runtime/index.ts';
import type { StoredDetail, StoredStep } from './run-store.ts';
import { viewOf } from './value-view.ts';

/** Blocks that call the platform: shown as platform calls in the waterfall. */
const PLATFORM_BLOCK = /^(kv-|queue-|topic-|agent-memory-|lock$)/;
/** Blocks that call out over HTTP. */
const HTTP_BLOCK = /^(rest|rest-dynamic|notes-retrieve-.*|notes-query-datasource)$/;

/**
 * Puts a run's steps in the order a person reads them: a step, then the steps nested in it
 * (switch cases, error chains), then its next sibling. Steps are recorded as they finish, so a
 * parent arrives after its children; the tree comes from setting paths, not timestamps, whose
 * millisecond resolution cannot order steps that run within one millisecond.
 */
export function orderSteps(steps: readonly StoredStep[]): Array<{ stored: StoredStep; depth: number; recorded: number }> {
  const parentOf = steps.map((s, i) => {
    let best = -1;
    for (let j = 0; j < steps.length; j++) {
      if (j === i || !s.step.startsWith(steps[j].step + '.')) continue;
      if (best === -1 || steps[j].step.length > steps[best].step.length) best = j;
    }
    return best;
  });
  const children = new Map<number, number[]>();
  for (let i = 0; i < steps.length; i++) {
    const list = children.get(parentOf[i]) ?? [];
    list.push(i);
    children.set(parentOf[i], list);
  }
  const out: Array<{ stored: StoredStep; depth: number; recorded: number }> = [];
  const visit = (parent: number, depth: number): void => {
    for (const i of children.get(parent) ?? []) {
      out.push({ stored: steps[i], depth, recorded: i });
      visit(i, depth + 1);
    }
  };
  visit(-1, 0);
  return out;
}

/** The waterfall of one run: steps in reading order with their calls, messages cut for display. */
export function runDetailView(summary: RunSummary, detail: StoredDetail | undefined): RunDetail {
  if (!detail) return { summary, steps: [], snapshots: false };
  const ordered = orderSteps(detail.steps);
  const steps: RunStep[] = ordered.map(({ stored, depth }, index) => {
    const step: RunStep = {
      index,
      step: stored.step,
      depth,
      category: categoryOf(stored.block),
      startedAt: stored.startedAt,
      durationMs: stored.durationMs,
      outcome: stored.outcome,
      calls: [],
    };
    if (stored.block !== undefined) step.block = stored.block;
    if (stored.name !== undefined) step.name = stored.name;
    if (stored.error !== undefined) step.error = stored.error;
    if (stored.input !== undefined) step.input = snapshotView(stored.input);
    if (stored.output !== undefined) step.output = snapshotView(stored.output);
    return step;
  });
  // A call names the step that made it as its parent span; timing is only the fallback (runs
  // recorded before step spans were kept), as a `set` and the `kv-put` after it start in one ms.
  const bySpan = new Map<string, RunStep>();
  ordered.forEach(({ stored }, i) => stored.spanId !== undefined && bySpan.set(stored.spanId, steps[i]));
  for (const span of detail.calls) {
    // A debugger's pause comes before its step starts: it names the step it waited before.
    const named = span.kind === 'debug' && typeof span.detail?.step === 'string' ? steps.find((s) => s.step === span.detail!.step) : undefined;
    const owner = named ?? (span.parentSpanId !== undefined ? bySpan.get(span.parentSpanId) : undefined) ?? ownerOf(span, steps);
    if (owner) {
      owner.calls.push(callOf(span));
      if (span.kind === 'http' && owner.category === 'block') owner.category = 'http';
    }
  }
  const view: RunDetail = { summary, steps, snapshots: detail.snapshots };
  if (detail.input !== undefined) view.input = snapshotView(detail.input);
  if (detail.output !== undefined) view.output = snapshotView(detail.output);
  return view;
}

/** The stored step at a reading-order index (what the window names), for the full value. */
export function storedStepAt(detail: StoredDetail, index: number): StoredStep | undefined {
  return orderSteps(detail.steps)[index]?.stored;
}

function snapshotView(value: unknown): MessageSnapshot {
  // The secret redactor walks a bounded number of values per record and records the rest as
  // '[truncated]': a large input leaves the step's whole output a string. Shown as an empty
  // message it read as "body → null, vars → {}", a change the step never made.
  if (typeof value === 'string') return { body: value, vars: value };
  const v = (value ?? {}) as { body?: unknown; vars?: unknown };
  return { body: viewOf(v.body ?? null, ['body']), vars: viewOf(v.vars ?? {}, ['vars']) };
}

function categoryOf(block: string | undefined): RunStep['category'] {
  if (block === undefined) return 'block';
  if (PLATFORM_BLOCK.test(block)) return 'platform';
  if (HTTP_BLOCK.test(block)) return 'http';
  return 'block';
}

/**
 * The innermost step running when the call started, preferring a step of the call's kind (a
 * platform call under a platform block) where whole-millisecond start times leave two candidates.
 */
function ownerOf(span: TraceSpan, steps: RunStep[]): RunStep | undefined {
  let best: RunStep | undefined;
  const score = (s: RunStep): number => (s.category === span.kind ? 2 : 0) + (span.startedAt >= s.startedAt && span.startedAt <= s.startedAt + s.durationMs ? 1 : 0);
  for (const s of steps) {
    // Step start times are whole milliseconds; allow one either side.
    if (span.startedAt + 1 < s.startedAt || span.startedAt > s.startedAt + s.durationMs + 1) continue;
    if (!best || score(s) > score(best) || (score(s) === score(best) && (s.depth > best.depth || (s.depth === best.depth && s.durationMs < best.durationMs)))) best = s;
  }
  return best;
}

function callOf(span: TraceSpan): RunCall {
  // The recorder keeps only calls made by steps, never the request's server span.
  return pickFields(span, CALL_FIELDS) as RunCall;
}
