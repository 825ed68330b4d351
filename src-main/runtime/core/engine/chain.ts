import { Halt, type Block, type StepResult } from '../component.ts';
import { errorMessage, errorStatus } from '../errors.ts';
import { Message, toSnapshot, type MessageError, type Outcome } from '../message.ts';
import { toMicros, type TraceHub } from '../trace.ts';
import { newSpanId } from '../trace-context.ts';
import type { DebugResume, DebugRun } from './debug-hook.ts';

export interface FlowResult {
  outcome: Outcome;
  message: Message;
  error?: MessageError;
  /** True when a block ended the chain early (Halt) rather than the last step. */
  halted?: boolean;
  /**
   * Set on a failure an error chain ran for: whether that chain set the body. The status it set,
   * if any, is `vars.httpStatus` (the chain starts without one, so only its own counts).
   */
  recovered?: { bodySet: boolean };
}

/** Per-run context handed to every block. */
export interface RunContext {
  flowName: string;
  runId: string;
  /** Set only while someone listens to traces. */
  trace: TraceHub | undefined;
  /** Nesting depth of flow-ref calls, to stop runaway recursion. */
  depth: number;
  deployment?: string;
  instance?: string;
  /** The run's trace (W3C ids), set while traced: joined from an incoming `traceparent` or new. */
  traceId?: string;
  /** The run's own span. */
  spanId?: string;
  /** The caller's span (from `traceparent`), when the run joined a trace. */
  parentSpanId?: string;
  /** The caller's sampled flag, passed on to the next hop; undefined when the trace started here. */
  sampled?: boolean;
  traceState?: string;
  /** The span of the step now running: calls it makes (HTTP, platform, publishes) are its children. */
  stepSpanId?: string;
  /** That step's parent: the run, or the step that runs a nested chain (a switch case). */
  stepParentSpanId?: string;
  /** Set only while a debugger is attached to the runtime (debug-hook.ts). */
  debug?: DebugRun;
}

/**
 * A run context with every field in one order: every context is built by this literal, so V8
 * sees one shape and a traced step's copy is a plain allocation (a spread of contexts of varying
 * shapes cost 7% of a traced run's CPU).
 */
export function runContext(c: RunContext, stepSpanId = c.stepSpanId, stepParentSpanId = c.stepParentSpanId): RunContext {
  return {
    flowName: c.flowName,
    runId: c.runId,
    trace: c.trace,
    depth: c.depth,
    deployment: c.deployment,
    instance: c.instance,
    traceId: c.traceId,
    spanId: c.spanId,
    parentSpanId: c.parentSpanId,
    sampled: c.sampled,
    traceState: c.traceState,
    stepSpanId,
    stepParentSpanId,
    debug: c.debug,
  };
}

/** The context a step runs in: its own span id, so calls it makes can name their parent. */
function stepContext(run: RunContext): RunContext {
  if (run.traceId === undefined) return run;
  return runContext(run, newSpanId(), run.stepSpanId ?? run.spanId);
}

export interface Step {
  /** Setting path, e.g. `flows.orders.steps[2]`. */
  path: string;
  type: string;
  name?: string;
  block: Block;
}

/**
 * Runs the rest of a chain from a step inside it and answers as that chain would: what a block
 * with nested steps is handed to re-enter them part-way (see `Block.resume`).
 */
export type ChainRest = (msg: Message, run: RunContext) => Promise<FlowResult>;

/** An ordered list of blocks; the unit a flow, a switch case or an error chain runs. */
export class Chain {
  /** `path` is the chain's setting path, e.g. `flows.orders.steps` or `flows.orders.steps[2].switch.default`. */
  constructor(
    readonly steps: readonly Step[],
    readonly path = '',
  ) {}

  run(msg: Message, run: RunContext): Promise<FlowResult> {
    return settled(() => this.start(msg, run));
  }

  /**
   * Like run, but answers synchronously when every block does: most flows are a few sync blocks,
   * and an async function per run costs more than the blocks themselves on the hot path.
   */
  start(msg: Message, run: RunContext): FlowResult | Promise<FlowResult> {
    return this.runFrom(0, msg, run);
  }

  /** Runs steps `first`… as if the message had just entered step `first` (a re-run from a step). */
  startAt(first: number, msg: Message, run: RunContext): Promise<FlowResult> {
    return settled(() => this.runFrom(first, msg, run));
  }

  /**
   * Runs step `at` by re-entering its nested steps part-way (`rest` runs them from a step inside),
   * then the steps after it: a re-run from a step inside a switch case or a lock. Step `at` is
   * traced as it would be had it run whole.
   */
  resumeAt(at: number, rest: ChainRest, msg: Message, run: RunContext): Promise<FlowResult> {
    return settled(() => this.runFrom(at, msg, run, rest));
  }

  /** `passed`: the step a paused run resumes at, which its debugger already let through. */
  private runFrom(first: number, msg: Message, run: RunContext, rest?: ChainRest, passed = -1): FlowResult | Promise<FlowResult> {
    let current = msg;
    for (let i = first; i < this.steps.length; i++) {
      const step = this.steps[i];
      const debug = run.debug;
      if (debug !== undefined && debug.hook.armed && i !== passed) {
        const paused = debug.hook.beforeStep(step, current, run);
        if (paused !== undefined) return this.afterPause(i, paused, current, run, i === first ? rest : undefined);
      }
      const outer = run;
      run = stepContext(outer);
      const trace = run.trace;
      const started = trace ? Date.now() : 0;
      const t0 = trace ? performance.now() : 0;
      const input = trace?.snapshots ? snapshot(current) : undefined;
      let result: StepResult | PromiseLike<StepResult>;
      try {
        result = rest !== undefined && i === first ? resumeInside(step, current, run, rest) : step.block.process(current, run);
      } catch (err) {
        return failedAt(run, step, current, started, t0, input, err);
      }
      if (result instanceof Promise || isThenable(result)) return this.resume(i, result, current, run, outer, started, t0, input);
      const next = afterStep(run, step, current, result, started, t0, input);
      if (!(next instanceof Message)) return next;
      current = next;
      run = outer;
    }
    return { outcome: 'completed', message: current };
  }

  /** A debugger paused the run before step `i`: go on from it as the person says, with the message as they left it. */
  private async afterPause(i: number, paused: Promise<DebugResume>, current: Message, run: RunContext, rest: ChainRest | undefined): Promise<FlowResult> {
    const resumed = await paused;
    if (resumed.abort !== undefined) return { outcome: 'failed', message: current, error: { message: resumed.abort, step: this.steps[i].path, block: this.steps[i].type, status: 500 } };
    return this.runFrom(i, resumed.message, run, rest, i);
  }

  /** A block answered with a promise: wait for it, then carry on with the rest of the steps. */
  private async resume(
    i: number,
    pending: PromiseLike<StepResult>,
    current: Message,
    run: RunContext,
    outer: RunContext,
    started: number,
    t0: number,
    input: unknown,
  ): Promise<FlowResult> {
    const step = this.steps[i];
    let result: StepResult;
    try {
      result = await pending;
    } catch (err) {
      return failedAt(run, step, current, started, t0, input, err);
    }
    const next = afterStep(run, step, current, result, started, t0, input);
    return next instanceof Message ? this.runFrom(i + 1, next, outer) : next;
  }
}

function resumeInside(step: Step, msg: Message, run: RunContext, rest: ChainRest): StepResult | PromiseLike<StepResult> {
  if (!step.block.resume) throw new Error(`${step.path} (${step.type}) has no nested steps to start inside`);
  return step.block.resume(msg, run, rest);
}

/** A promise of what `start` answers, synchronously or not; a throw becomes a rejection. */
export function settled(start: () => FlowResult | Promise<FlowResult>): Promise<FlowResult> {
  try {
    return Promise.resolve(start());
  } catch (err) {
    return Promise.reject(err);
  }
}

function failedAt(run: RunContext, step: Step, msg: Message, started: number, t0: number, input: unknown, err: unknown): FlowResult {
  const error: MessageError = { message: errorMessage(err), step: step.path, block: step.type, status: errorStatus(err) };
  if (run.trace) emitStep(run, step, msg, started, t0, 'failed', input, error.message);
  return { outcome: 'failed', message: msg, error };
}

/** The message to go on with, or the chain's result when the step dropped or halted it. */
function afterStep(run: RunContext, step: Step, current: Message, result: StepResult, started: number, t0: number, input: unknown): Message | FlowResult {
  const trace = run.trace;
  if (result === null) {
    if (trace) emitStep(run, step, current, started, t0, 'dropped', input);
    return { outcome: 'dropped', message: current };
  }
  if (result instanceof Halt) {
    if (trace) emitStep(run, step, result.message, started, t0, 'completed', input);
    return { outcome: 'completed', message: result.message, halted: true };
  }
  if (trace) emitStep(run, step, result, started, t0, 'completed', input);
  return result;
}

function isThenable(value: unknown): value is PromiseLike<StepResult> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function snapshot(msg: Message): unknown {
  return { body: toSnapshot(msg.body), vars: toSnapshot(msg.vars) };
}

function emitStep(
  run: RunContext,
  step: Step,
  msg: Message,
  startedAt: number,
  t0: number,
  outcome: Outcome,
  input: unknown,
  error?: string,
): void {
  const trace = run.trace;
  if (!trace) return;
  trace.emit({
    kind: 'step',
    flow: run.flowName,
    correlationId: msg.correlationId,
    runId: run.runId,
    traceId: run.traceId,
    spanId: run.stepSpanId,
    parentSpanId: run.stepParentSpanId,
    sampled: run.sampled,
    step: step.path,
    block: step.type,
    name: step.name,
    startedAt,
    durationMs: toMicros(performance.now() - t0),
    outcome,
    error,
    input,
    output: trace.snapshots && outcome !== 'failed' ? snapshot(msg) : undefined,
    deployment: run.deployment,
    instance: run.instance,
  });
}
