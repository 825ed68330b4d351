import type { DebugOutput, MessageEdit, PausedRunView, PauseReason, StepAction } from '../../../shared/debugger-types.ts';
import { stepFrames } from '../../../shared/step-paths.ts';
import { activationOf } from '../core/activation.ts';
import { createCelEnvironment, isTrue, type CelActivation, type CelEnvironment } from '../core/cel.ts';
import { errorMessage } from '../core/errors.ts';
import type { FlowResult, RunContext, Step } from '../core/engine/chain.ts';
import type { DebugResume, DebugRun } from '../core/engine/debug-hook.ts';
import { toSnapshot, type Message } from '../core/message.ts';
import { runHolds } from '../core/run-hold.ts';
import type { Runtime } from '../core/runtime.ts';
import { checkBreakpoint, hitMatches, type BreakpointCheck, type StepBreakpoint } from './breakpoints.ts';
import { DebugTarget, type DebugTargetOptions } from './debug-target.ts';
import { setInMessage, pathText } from './message-edit.ts';
import { framesOf, messageView, pauseSpan } from './paused-view.ts';

/** What a debug session tells its front end (the studio's feed, the DAP adapter's events). */
export interface DebugListener {
  paused?(run: PausedRunView): void;
  resumed?(thread: number, action: StepAction | 'abort'): void;
  /** A run that had a thread (it paused at least once) ended. */
  ended?(thread: number, result: FlowResult): void;
  output?(output: DebugOutput): void;
  /**
   * A runtime attached and the breakpoints were checked again in its CEL environment (types and
   * functions, which setBreakpoints cannot check before one is attached): every breakpoint's verdict.
   */
  checked?(checks: BreakpointCheck[]): void;
}

/** A failure of a debugger call a person made (no such thread, an expression that does not compile): its message says what to do. */
export class DebugError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DebugError';
  }
}

interface Paused {
  view: PausedRunView;
  msg: Message;
  run: RunContext;
  debug: DebugRun;
  target: DebugTarget;
  step: Step;
  resolve(resume: DebugResume): void;
}

interface Stepping {
  action: Exclude<StepAction, 'continue'>;
  depth: number;
}

/**
 * The engine-side debugger: breakpoints by step path, the runs paused at them, stepping, evaluate
 * and edit, for every runtime attached (a studio run, its hot-reloaded successor, a replay). One
 * run pauses while the others flow: only the run that reaches a matching breakpoint waits. The
 * studio's debugger and the DAP adapter each drive one of these.
 */
export class DebugSession {
  /** Read before every step of every run while attached: true only while something could pause. */
  armed = false;
  private breakpoints = new Map<string, StepBreakpoint[]>();
  private readonly hits = new Map<number, number>();
  private readonly stepping = new Map<string, Stepping>();
  private pauseNext = false;
  private readonly paused = new Map<number, Paused>();
  private readonly threads = new Map<string, number>();
  private readonly nextThread: () => number;
  private readonly listeners = new Set<DebugListener>();
  private readonly targets = new Set<DebugTarget>();
  /**
   * Checks breakpoints set before any runtime is attached (as DAP clients set them): syntax, hit
   * counts, log messages. Made on first use: most sessions (one per integration in the studio)
   * never set a breakpoint.
   */
  private unattachedCel: CelEnvironment | undefined;

  /** `nextThread`: thread ids unique beyond this session (the studio has one session per integration); default 2, 3, … */
  constructor(options: { nextThread?: () => number } = {}) {
    let next = 2;
    this.nextThread = options.nextThread ?? (() => next++);
  }

  /** Attaches to a runtime; its runs stop at this session's breakpoints. Returns the detach. */
  attach(runtime: Runtime, options: DebugTargetOptions = {}): () => void {
    const target = new DebugTarget(this, runtime, options);
    this.targets.add(target);
    const detach = runtime.attachDebugger(target);
    const all = [...this.breakpoints.values()].flat();
    if (all.length > 0) {
      const checks = all.map((bp) => checkBreakpoint(bp, target.cel));
      for (const l of this.listeners) l.checked?.(checks);
    }
    return () => {
      detach();
      this.targets.delete(target);
      this.release(target, 'the debugger detached');
    };
  }

  listen(listener: DebugListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Replaces every breakpoint; answers for each whether it can work as written (its expressions
   * compile in the newest attached runtime). Hit counts of breakpoints that stay are kept.
   */
  setBreakpoints(list: readonly StepBreakpoint[]): BreakpointCheck[] {
    const byStep = new Map<string, StepBreakpoint[]>();
    const checks: BreakpointCheck[] = [];
    const cel = [...this.targets].at(-1)?.cel ?? (this.unattachedCel ??= createCelEnvironment([], undefined, { checkCalls: false }));
    for (const bp of list) {
      const check = checkBreakpoint(bp, cel);
      checks.push(check);
      const same = byStep.get(bp.step) ?? [];
      same.push(bp);
      byStep.set(bp.step, same);
    }
    const ids = new Set(list.map((b) => b.id));
    for (const id of this.hits.keys()) if (!ids.has(id)) this.hits.delete(id);
    this.breakpoints = byStep;
    for (const t of this.targets) t.forgetCompiled();
    this.rearm();
    return checks;
  }

  /** Pauses the next step any run takes (no thread), or the next step of one run (a thread it had); a thread of no run is refused. */
  requestPause(thread?: number): void {
    const runId = thread === undefined ? undefined : [...this.threads].find(([, t]) => t === thread)?.[0];
    if (thread !== undefined && runId === undefined) throw new DebugError(`no run has thread ${thread}; it ended (or never paused)`);
    if (runId !== undefined) this.stepping.set(runId, { action: 'stepIn', depth: 0 });
    else this.pauseNext = true;
    this.rearm();
  }

  pausedRuns(): PausedRunView[] {
    return [...this.paused.values()].map((p) => p.view).sort((a, b) => a.pausedAt - b.pausedAt);
  }

  pausedRun(thread: number): PausedRunView {
    return this.state(thread).view;
  }

  /** CEL in the paused run's context (`body`, `vars`, `headers`, `correlationID`), evaluated in its runtime's environment. */
  async evaluate(thread: number, expression: string): Promise<unknown> {
    const p = this.state(thread);
    let compiled;
    try {
      compiled = p.target.cel.compile(expression);
    } catch (err) {
      throw new DebugError(`${errorMessage(err)} in ${JSON.stringify(expression)}`);
    }
    try {
      const value = await compiled.evaluate(this.activation(p.msg, p.view));
      return p.target.masked(toSnapshot(value));
    } catch (err) {
      throw new DebugError(`${expression}: ${p.target.masked(errorMessage(err))}`);
    }
  }

  /** Sets a field, or the whole body or vars, of a paused run's message; recorded with who did it, before and after. */
  edit(thread: number, path: ReadonlyArray<string | number>, value: unknown, by: string): PausedRunView {
    const p = this.state(thread);
    let before: unknown;
    try {
      before = setInMessage(p.msg, path, value);
    } catch (err) {
      throw new DebugError(errorMessage(err));
    }
    const edit: MessageEdit = { path: pathText(path), before: p.target.masked(before), after: p.target.masked(toSnapshot(value)), by, at: p.target.clock.now() };
    p.view = { ...p.view, message: messageView(p.msg, p.debug, p.target), edits: [...p.view.edits, edit] };
    return p.view;
  }

  /** Lets a paused run go on: to the next breakpoint, or to the next step over, into or out of the one it waits before. */
  resume(thread: number, action: StepAction, by: string): void {
    const p = this.take(thread);
    if (action !== 'continue') this.stepping.set(p.debug.threadRunId, { action, depth: depthOf(p.debug, p.step.path) });
    this.rearm();
    this.letGo(p, action, by);
    p.resolve({ message: p.msg });
  }

  /** Fails a paused run with an error saying it was aborted, where and by whom. */
  abort(thread: number, by: string): void {
    const p = this.take(thread);
    this.letGo(p, 'abort', by);
    p.resolve({ abort: `aborted in the debugger before ${p.step.path} by ${by}` });
  }

  /* ---------- Called by the runtimes' hooks (debug-target.ts) ---------- */

  /** @internal A run reached a step while armed: pause it, write a logpoint's line, or let it pass. */
  beforeStep(target: DebugTarget, step: Step, msg: Message, run: RunContext): Promise<DebugResume> | undefined {
    const debug = run.debug!;
    debug.at = step.path;
    const stepping = this.stepping.size > 0 ? this.stepping.get(debug.threadRunId) : undefined;
    if (stepping !== undefined) {
      const depth = depthOf(debug, step.path);
      if (stepping.action === 'stepIn' || (stepping.action === 'next' && depth <= stepping.depth) || (stepping.action === 'stepOut' && depth < stepping.depth)) {
        this.stepping.delete(debug.threadRunId);
        return this.pause(target, step, msg, run, 'step');
      }
    }
    if (this.pauseNext) {
      this.pauseNext = false;
      this.rearm();
      return this.pause(target, step, msg, run, 'pause');
    }
    const bps = this.breakpoints.get(step.path);
    if (bps === undefined) return undefined;
    return this.atBreakpoints(target, bps, 0, step, msg, run);
  }

  /** @internal A debugged run ended: a run that had a thread says so, and its stepping is forgotten. */
  ended(debug: DebugRun, result: FlowResult): void {
    if (debug.callers.length > 0) return;
    this.stepping.delete(debug.threadRunId);
    const thread = this.threads.get(debug.threadRunId);
    if (thread === undefined) return;
    this.threads.delete(debug.threadRunId);
    this.rearm();
    for (const l of this.listeners) l.ended?.(thread, result);
  }

  /** @internal A runtime stops: its paused runs fail, saying why, rather than hold its stop forever. */
  release(target: DebugTarget, why: string): void {
    for (const [thread, p] of this.paused) {
      if (p.target !== target) continue;
      this.take(thread);
      this.letGo(p, 'abort', 'the studio');
      p.resolve({ abort: `${why} while this run was paused before ${p.step.path}` });
    }
  }

  /** Breakpoints from index `i` on: conditions may wait (a secret read the first time), so the walk may continue asynchronously. */
  private atBreakpoints(target: DebugTarget, bps: StepBreakpoint[], i: number, step: Step, msg: Message, run: RunContext): Promise<DebugResume> | undefined {
    for (; i < bps.length; i++) {
      const bp = bps[i];
      const compiled = target.compiled(bp);
      if (compiled === undefined) continue;
      if (compiled.condition !== undefined) {
        let verdict: unknown;
        try {
          verdict = compiled.condition.evaluate(this.activationAt(msg, run));
        } catch (err) {
          this.conditionFailed(target, bp, step, run, err);
          continue;
        }
        if (verdict instanceof Promise) {
          const rest = i;
          return verdict.then(
            (v) => (isTrue(v) ? this.hit(target, bps, rest, step, msg, run) : this.atBreakpoints(target, bps, rest + 1, step, msg, run)) ?? { message: msg },
            (err: unknown) => {
              this.conditionFailed(target, bp, step, run, err);
              return this.atBreakpoints(target, bps, rest + 1, step, msg, run) ?? { message: msg };
            },
          );
        }
        if (!isTrue(verdict)) continue;
      }
      const paused = this.hit(target, bps, i, step, msg, run);
      if (paused !== undefined) return paused;
    }
    return undefined;
  }

  /** Breakpoint `i` matched: count the hit; write the line of a logpoint, or pause; then the rest. */
  private hit(target: DebugTarget, bps: StepBreakpoint[], i: number, step: Step, msg: Message, run: RunContext): Promise<DebugResume> | undefined {
    const bp = bps[i];
    const compiled = target.compiled(bp)!;
    const hits = (this.hits.get(bp.id) ?? 0) + 1;
    this.hits.set(bp.id, hits);
    if (compiled.hits !== undefined && !hitMatches(compiled.hits, hits)) return this.atBreakpoints(target, bps, i + 1, step, msg, run);
    if (compiled.message === undefined) return this.pause(target, step, msg, run, 'breakpoint', bp.id);
    const logged = target.logLine(compiled.message, this.activationAt(msg, run));
    const write = (text: string): void => this.output(target, { text, category: 'console', flow: run.flowName, step: step.path, runId: run.runId, breakpointId: bp.id, at: target.clock.now() });
    if (logged instanceof Promise) {
      return logged.then(
        (text) => {
          write(text);
          return this.atBreakpoints(target, bps, i + 1, step, msg, run) ?? { message: msg };
        },
        (err: unknown) => {
          this.conditionFailed(target, bp, step, run, err);
          return this.atBreakpoints(target, bps, i + 1, step, msg, run) ?? { message: msg };
        },
      );
    }
    write(logged);
    return this.atBreakpoints(target, bps, i + 1, step, msg, run);
  }

  private pause(target: DebugTarget, step: Step, msg: Message, run: RunContext, reason: PauseReason, breakpointId?: number): Promise<DebugResume> {
    const debug = run.debug!;
    let thread = this.threads.get(debug.threadRunId);
    if (thread === undefined) this.threads.set(debug.threadRunId, (thread = this.nextThread()));
    const pausedAt = target.clock.now();
    runHolds.paused(debug.root, pausedAt);
    const view: PausedRunView = {
      thread,
      runId: debug.threadRunId,
      flow: debug.callers.length === 0 ? run.flowName : flowOfRoot(debug, run),
      ...(target.integration !== undefined ? { integration: target.integration } : {}),
      correlationId: msg.correlationId,
      step: step.path,
      reason,
      ...(breakpointId !== undefined ? { breakpointId } : {}),
      pausedAt,
      frames: framesOf(thread, step, debug, target),
      message: messageView(msg, debug, target),
      edits: [],
      origin: target.label,
    };
    return new Promise<DebugResume>((resolve) => {
      this.paused.set(thread, { view, msg, run, debug, target, step, resolve });
      for (const l of this.listeners) l.paused?.(view);
    });
  }

  /** Resumed or aborted: its source stops holding, its trace records the pause and the edits. */
  private letGo(p: Paused, action: StepAction | 'abort', by: string): void {
    const now = p.target.clock.now();
    runHolds.resumed(p.debug.root, now);
    const span = pauseSpan(p.run, p.view, action, by, now);
    if (span !== undefined) p.run.trace?.span(span);
    for (const l of this.listeners) l.resumed?.(p.view.thread, action);
  }

  private take(thread: number): Paused {
    const p = this.state(thread);
    this.paused.delete(thread);
    return p;
  }

  private state(thread: number): Paused {
    const p = this.paused.get(thread);
    if (!p) throw new DebugError(`no run is paused as thread ${thread}; it went on or ended`);
    return p;
  }

  private output(target: DebugTarget, out: DebugOutput): void {
    const text = target.masked(out.text);
    target.log.info(text, { flow: out.flow, step: out.step, runId: out.runId, logpoint: true });
    for (const l of this.listeners) l.output?.({ ...out, text });
  }

  private conditionFailed(target: DebugTarget, bp: StepBreakpoint, step: Step, run: RunContext, err: unknown): void {
    const what = bp.logMessage !== undefined ? 'logpoint' : 'breakpoint condition';
    const text = `${what} at ${step.path} could not be evaluated, so it did not ${bp.logMessage !== undefined ? 'write' : 'pause'}: ${errorMessage(err)}`;
    this.output(target, { text, category: 'stderr', flow: run.flowName, step: step.path, runId: run.runId, breakpointId: bp.id, at: target.clock.now() });
  }

  /** The names a debugger expression sees: a flow's CEL names plus `headers` (the request's or the message's). */
  private activation(msg: Message, view: PausedRunView): CelActivation {
    return { ...activationOf(msg), headers: view.message.headers ?? {} };
  }

  private activationAt(msg: Message, run: RunContext): CelActivation {
    const hold = run.debug ? runHolds.of(run.debug.root) : undefined;
    return { ...activationOf(msg), headers: hold?.headers ?? msg.vars.headers ?? {} };
  }

  private rearm(): void {
    let any = this.pauseNext || this.stepping.size > 0;
    if (!any) for (const bps of this.breakpoints.values()) if (bps.length > 0) any = true;
    this.armed = any;
  }
}

/** How deep a step is, callers' frames included: what step over and step out compare. */
function depthOf(debug: DebugRun, step: string): number {
  let depth = stepFrames(step).length;
  for (const c of debug.callers) depth += stepFrames(c).length;
  return depth;
}

/** The flow of the top-level run, for a pause inside a flow-ref's run: its outermost caller frame's flow. */
function flowOfRoot(debug: DebugRun, run: RunContext): string {
  const outer = debug.callers[0];
  const m = outer !== undefined ? /^flows\.([^.]+)\./.exec(outer) : null;
  return m ? m[1] : run.flowName;
}
