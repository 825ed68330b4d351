import type { DebugFrame, DebugMessage, PausedRunView, StepAction } from '../../../shared/debugger-types.ts';
import { flowOfStep, stepFrames } from '../../../shared/step-paths.ts';
import type { RunContext, Step } from '../core/engine/chain.ts';
import type { DebugRun } from '../core/engine/debug-hook.ts';
import { toSnapshot, type Message } from '../core/message.ts';
import { runHolds } from '../core/run-hold.ts';
import type { TraceSpan } from '../core/trace.ts';
import { newSpanId } from '../core/trace-context.ts';
import type { DebugTarget } from './debug-target.ts';

/** Frames per thread: frame ids are `thread * FRAMES + i`, unique across paused runs. */
export const FRAMES_PER_THREAD = 1000;

/** Credentials a person debugging never needs to read: their values are masked in the headers shown. */
const CREDENTIAL = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$|token|secret|signature|password/i;

/**
 * A paused run's frames, innermost first: the step it waits before, each step that holds it (a
 * switch case's switch, a lock), then the same for each flow-ref step that called its flow.
 */
export function framesOf(thread: number, step: Step, debug: DebugRun, target: DebugTarget): DebugFrame[] {
  const paths = [...stepFrames(step.path)];
  for (let i = debug.callers.length - 1; i >= 0; i--) paths.push(...stepFrames(debug.callers[i]));
  return paths.slice(0, FRAMES_PER_THREAD).map((path, i): DebugFrame => {
    const place = target.locate(path);
    const frame: DebugFrame = { id: thread * FRAMES_PER_THREAD + i, step: path, flow: flowOfStep(path) ?? '' };
    const block = i === 0 ? step.type : place?.block;
    const name = i === 0 ? step.name : place?.name;
    if (block !== undefined) frame.block = block;
    if (name !== undefined) frame.name = name;
    if (place) {
      frame.file = place.file;
      frame.line = place.line;
    }
    return frame;
  });
}

/** The message as a person sees it at the pause: JSON, secrets masked, credentials in headers hidden. */
export function messageView(msg: Message, debug: DebugRun, target: DebugTarget): DebugMessage {
  const view: DebugMessage = { body: toSnapshot(msg.body), vars: (toSnapshot(msg.vars) ?? {}) as Record<string, unknown> };
  const headers = runHolds.of(debug.root)?.headers;
  if (headers !== undefined) view.headers = withoutCredentials(toSnapshot(headers) as Record<string, unknown>);
  return target.masked(view);
}

function withoutCredentials(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = CREDENTIAL.test(k) ? '[redacted]' : v;
  return out;
}

/**
 * The pause as a span of the run's trace (one record shape for everything a step did): how long
 * it waited before which step, how it went on, and every edit with who made it, before and after.
 */
export function pauseSpan(run: RunContext, view: PausedRunView, action: StepAction | 'abort', by: string, now: number): TraceSpan | undefined {
  if (run.trace === undefined) return undefined;
  return {
    kind: 'debug',
    flow: run.flowName,
    runId: run.runId,
    correlationId: view.correlationId,
    name: `paused before ${view.step}`,
    startedAt: view.pausedAt,
    durationMs: now - view.pausedAt,
    deployment: run.deployment,
    instance: run.instance,
    traceId: run.traceId,
    spanId: run.traceId !== undefined ? newSpanId() : undefined,
    parentSpanId: run.stepSpanId ?? run.spanId,
    sampled: run.sampled,
    detail: {
      step: view.step,
      reason: view.reason,
      ...(view.breakpointId !== undefined ? { breakpoint: view.breakpointId } : {}),
      action,
      by,
      edits: view.edits.map((e) => ({ path: e.path, before: e.before, after: e.after, by: e.by })),
    },
  };
}
