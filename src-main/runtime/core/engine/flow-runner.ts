import { errorMessage, errorStatus } from '../errors.ts';
import { newCorrelationId, toSnapshot, type Message } from '../message.ts';
import { REFUSED_BEFORE_FLOW } from '../../../../shared/trace-record.ts';
import { toMicros, type TraceHub } from '../trace.ts';
import { newSpanId, newTraceId } from '../trace-context.ts';
import { Chain, runContext, settled, type FlowResult, type RunContext, type Step } from './chain.ts';
import type { DebugHook, DebugRun } from './debug-hook.ts';
import { stepEntry, type StepEntry } from './step-entry.ts';

export interface FlowRunnerOptions {
  name: string;
  steps: Chain;
  onError?: Chain;
  /** Every chain the definition built, by setting path: where a run from a nested step starts. */
  chains?: ReadonlyMap<string, Chain>;
  /** Messages processed in parallel. */
  workers: number;
  /** Messages queued beyond the workers before the source is held back. */
  buffer: number;
  traces: TraceHub;
  identity: { deploymentId: string; instanceId: string };
}

interface Queued {
  msg: Message;
  depth: number;
  resolve: (r: FlowResult) => void;
}

let runCounter = 0;
/**
 * Run ids are unique across a process's restarts, not only within it: the studio keeps runs, and
 * the log lines naming them, from one start to the next. The process's start second (base 36,
 * five digits: it repeats after 1.9 years) comes before a counter, joined by `_` so an id is one word.
 */
const RUN_ID_PREFIX = `r${(Math.floor(Date.now() / 1000) % 36 ** 5).toString(36)}_`;

/** A run id no other run of this process has, a refused message's too. */
function newRunId(): string {
  return RUN_ID_PREFIX + (++runCounter).toString(36);
}

/**
 * Runs messages through one flow with at most `workers` in parallel and `buffer` waiting. A
 * submit beyond that is held back (its promise waits) until a slot frees, which is how a source
 * feels back-pressure.
 */
export class FlowRunner {
  private active = 0;
  private readonly queue: Queued[] = [];
  private readonly held: Array<() => void> = [];
  private readonly readyProbes: Array<() => void> = [];
  private heldSubmits = 0;
  private readonly idleWaiters: Array<() => void> = [];
  /** The attached debugger, if any: each run asks it whether it follows the run. */
  private debugger: DebugHook | undefined;

  constructor(private readonly opts: FlowRunnerOptions) {}

  /** Attaches a debugger to the runs that start from now on (undefined detaches it). */
  attachDebugger(hook: DebugHook | undefined): void {
    this.debugger = hook;
  }

  get name(): string {
    return this.opts.name;
  }

  /** Messages the flow takes before a submit is held back: workers plus buffer. */
  get capacity(): number {
    return this.opts.workers + this.opts.buffer;
  }

  /** Messages running or waiting. */
  get inFlight(): number {
    return this.active + this.queue.length + this.heldSubmits;
  }

  /** Runs a message through the flow. Never rejects: failures come back as outcome `failed`. */
  async submit(msg: Message, depth = 0): Promise<FlowResult> {
    if (this.active + this.queue.length >= this.opts.workers + this.opts.buffer) {
      this.heldSubmits++;
      try {
        while (this.active + this.queue.length >= this.opts.workers + this.opts.buffer) {
          await new Promise<void>((resolve) => this.held.push(resolve));
        }
      } finally {
        this.heldSubmits--;
      }
    }
    if (this.active < this.opts.workers) return this.inWorker(msg, depth);
    return new Promise<FlowResult>((resolve) => this.queue.push({ msg, depth, resolve }));
  }

  /**
   * Like submit, but answers synchronously when a worker is free, nothing waits before it, and
   * every block of the run answers synchronously: a request through a few sync blocks then costs
   * no promise at all (each async hop a request takes costs it about 1% of throughput).
   */
  start(msg: Message): FlowResult | Promise<FlowResult> {
    if (this.active >= this.opts.workers || this.queue.length > 0 || this.heldSubmits > 0) return this.submit(msg);
    return this.inWorker(msg, 0);
  }

  /** Runs on a worker that is free, and frees it when the run ends: at once when the run answers synchronously. */
  private inWorker(msg: Message, depth: number): FlowResult | Promise<FlowResult> {
    this.active++;
    let result: FlowResult | Promise<FlowResult>;
    try {
      result = this.execute(msg, depth);
    } catch (err) {
      this.release();
      throw err;
    }
    if (result instanceof Promise) return result.finally(() => this.release());
    this.release();
    return result;
  }

  /** Resolves when a submitted message would start or queue rather than be held back. */
  async ready(): Promise<void> {
    while (this.active + this.queue.length >= this.opts.workers + this.opts.buffer) {
      await new Promise<void>((resolve) => this.readyProbes.push(resolve));
    }
  }

  /** Resolves when nothing is running or waiting (used to stop without dropping work). */
  async idle(): Promise<void> {
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** The flow's top-level steps, in order. */
  get steps(): readonly Step[] {
    return this.opts.steps.steps;
  }

  /**
   * Runs a message through top-level steps `first` up to (not including) `end` only, as if it
   * had just entered step `first`: flow tests of a step range, and re-runs from a step.
   */
  runSlice(msg: Message, first: number, end?: number): Promise<FlowResult> {
    return settled(() => this.execute(msg, 0, new Chain(this.opts.steps.steps.slice(first, end))));
  }

  /**
   * Runs a message from any step of the flow, nested ones included, as if it had just entered that
   * step: the rest of the enclosing switch case or lock, then the rest of the flow after it. From
   * a step of the error chain, the rest of that chain; the outcome stays failed, as in a whole run.
   * Rejects, naming the step, when the current definition has no such step.
   */
  runFromStep(msg: Message, stepPath: string): Promise<FlowResult> {
    const { name, steps, onError, chains } = this.opts;
    return settled(() => this.execute(msg, 0, steps, stepEntry(name, stepPath, chains ?? new Map([[steps.path, steps]]), { steps, onError })));
  }

  /** Runs directly, bypassing workers: a flow-ref call already holds a worker of its caller, whose debugger follows it in. */
  runNested(msg: Message, depth: number, caller?: DebugRun): Promise<FlowResult> {
    return settled(() => this.execute(msg, depth, undefined, undefined, caller));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) {
      // The worker slot passes straight to the next queued message.
      void settled(() => this.execute(next.msg, next.depth)).then((r) => {
        next.resolve(r);
        this.release();
      });
    } else {
      this.active--;
    }
    // One slot freed: one held submit takes it; probes only look, so all of them may re-check.
    this.held.shift()?.();
    // Guarded: an empty splice still allocates, and this runs once per message.
    if (this.readyProbes.length > 0) for (const wake of this.readyProbes.splice(0)) wake();
    if (this.idleWaiters.length > 0 && this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * Traces a message its source refused before any step ran (a request body it could not read)
   * as a run of no steps whose error begins REFUSED_BEFORE_FLOW, carrying the deployment and
   * instance as every run does. `traced`: the source's sampling decision, when it made one.
   * Returns the run's correlation id when it was traced.
   */
  refused(reason: string, correlationId: string | undefined, traced: boolean | undefined): string | undefined {
    const { traces, identity } = this.opts;
    if (!traces.active || !(traced ?? traces.admission.admit())) return undefined;
    const id = correlationId ?? newCorrelationId();
    traces.emit({
      kind: 'run',
      flow: this.opts.name,
      correlationId: id,
      runId: newRunId(),
      traceId: newTraceId(),
      spanId: newSpanId(),
      startedAt: Date.now(),
      durationMs: 0,
      outcome: 'failed',
      error: REFUSED_BEFORE_FLOW + reason,
      deployment: identity.deploymentId,
      instance: identity.instanceId,
    });
    return id;
  }

  /** Runs a message through the flow: synchronously when every block answers synchronously and no error chain runs. */
  private execute(msg: Message, depth: number, steps = this.opts.steps, entry?: StepEntry, caller?: DebugRun): FlowResult | Promise<FlowResult> {
    const { traces, identity } = this.opts;
    const runId = newRunId();
    const hook = caller?.hook ?? this.debugger;
    // Decided once per message: a nested run (flow-ref) shares its caller's fate.
    const trace = traces.active && (msg.traced ?? (msg.traced = traces.admission.admit())) ? traces : undefined;
    const parent = trace ? msg.traceParent : undefined;
    // One literal with every field (see runContext): the run's place in a trace is a child of
    // the caller's span when the message brought one.
    const run: RunContext = runContext({
      flowName: this.opts.name,
      runId,
      trace,
      depth,
      deployment: identity.deploymentId,
      instance: identity.instanceId,
      traceId: trace ? (parent?.traceId ?? newTraceId()) : undefined,
      spanId: trace ? newSpanId() : undefined,
      parentSpanId: parent?.spanId,
      sampled: parent?.sampled,
      traceState: parent?.traceState,
      debug: hook !== undefined ? hook.begin(this.opts.name, runId, msg, caller) : undefined,
    });
    // Timed also when shed under load: a run that fails is recorded after all.
    const started = traces.active ? Date.now() : 0;
    const t0 = traces.active ? performance.now() : 0;
    const input = run.trace?.snapshots ? { body: toSnapshot(msg.body), vars: toSnapshot(msg.vars) } : undefined;
    let first: FlowResult | Promise<FlowResult>;
    try {
      first = entry ? entry.start(msg, run) : steps.start(msg, run);
    } catch (err) {
      // As a failure of the run's own machinery: recorded, with no error chain (as an async one).
      const failed = failedRun(msg, err);
      this.report(failed, msg, run, started, t0, input);
      return failed;
    }
    if (first instanceof Promise || entry?.inErrorChain || (first.outcome === 'failed' && this.opts.onError)) {
      return this.finishLater(first, msg, run, entry, started, t0, input);
    }
    this.report(first, msg, run, started, t0, input);
    return first;
  }

  /** The rest of a run that waits for a block or runs its error chain. */
  private async finishLater(
    first: FlowResult | Promise<FlowResult>,
    msg: Message,
    run: RunContext,
    entry: StepEntry | undefined,
    started: number,
    t0: number,
    input: unknown,
  ): Promise<FlowResult> {
    let result: FlowResult;
    try {
      result = first instanceof Promise ? await first : first;
      if (entry?.inErrorChain) result = stillFailed(result, msg);
      else if (result.outcome === 'failed' && this.opts.onError) result = await this.recover(result, run);
    } catch (err) {
      result = failedRun(msg, err);
    }
    this.report(result, msg, run, started, t0, input);
    return result;
  }

  /** The run's own trace record, when traced (or shed but failed: a failure is what a user looks for). */
  private report(result: FlowResult, msg: Message, run: RunContext, started: number, t0: number, input: unknown): void {
    if (run.debug !== undefined) run.debug.hook.ended(run.debug, result);
    const traces = this.opts.traces;
    const keptAfterAll = !run.trace && result.outcome === 'failed' && msg.traced === false && run.depth === 0 && traces.active;
    if (keptAfterAll) traces.admission.keptAfterAll();
    if (!run.trace && !keptAfterAll) return;
    traces.emit({
      kind: 'run',
      flow: run.flowName,
      correlationId: msg.correlationId,
      runId: run.runId,
      traceId: run.traceId ?? newTraceId(),
      spanId: run.spanId ?? newSpanId(),
      parentSpanId: run.parentSpanId,
      sampled: run.sampled,
      startedAt: started,
      durationMs: toMicros(performance.now() - t0),
      outcome: result.outcome,
      error: result.error?.message,
      input,
      output: run.trace?.snapshots ? { body: toSnapshot(result.message.body), vars: toSnapshot(result.message.vars) } : undefined,
      deployment: run.deployment,
      instance: run.instance,
    });
  }

  /**
   * The error chain sees the failure in `vars.error` (`{message, step, status}`) and may shape the
   * answer (a body, an `httpStatus`, an SSE frame); the message stays failed so sources still
   * nack or report it. A status an earlier step chose for success is not the failure's answer:
   * the chain starts without `vars.httpStatus`, and its body counts only if the chain set one.
   */
  private async recover(failed: FlowResult, run: RunContext): Promise<FlowResult> {
    const msg = failed.message;
    const error = failed.error ?? { message: 'failed' };
    msg.error = { message: error.message, step: error.step ?? '', status: error.status ?? 500 };
    // The chain may copy the message into a body it answers with: a secret in it stays masked.
    const redactor = this.opts.traces.redactor;
    msg.vars.error = { ...msg.error, message: redactor ? redactor.redact(error.message) : error.message };
    delete msg.vars.httpStatus;
    const bodyBefore = msg.body;
    const handled = await this.opts.onError!.run(msg, runContext(run));
    const recovered = { bodySet: handled.message !== msg || handled.message.body !== bodyBefore };
    return { outcome: 'failed', message: handled.message, error: handled.outcome === 'failed' ? handled.error : failed.error, recovered };
  }
}

/** A run from inside the error chain ends failed, as the whole run did: with the failure its `vars.error` names. */
function stillFailed(result: FlowResult, entered: Message): FlowResult {
  if (result.outcome === 'failed') return result;
  const named = entered.vars.error as { message?: unknown; step?: unknown; status?: unknown } | undefined;
  const error = {
    message: typeof named?.message === 'string' ? named.message : 'failed',
    step: typeof named?.step === 'string' ? named.step : undefined,
    status: typeof named?.status === 'number' ? named.status : undefined,
  };
  return { outcome: 'failed', message: result.message, error, recovered: { bodySet: true } };
}

function failedRun(msg: Message, err: unknown): FlowResult {
  return { outcome: 'failed', message: msg, error: { message: errorMessage(err), status: errorStatus(err) } };
}
