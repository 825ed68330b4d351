import type { Clock } from '../../../shared/clock.ts';
import type { CelActivation, CelEnvironment, CompiledCel } from '../core/cel.ts';
import type { FlowResult, RunContext, Step } from '../core/engine/chain.ts';
import type { DebugHook, DebugResume, DebugRun } from '../core/engine/debug-hook.ts';
import type { Logger, SecretRedactor } from '../core/logger.ts';
import type { Message } from '../core/message.ts';
import type { Runtime } from '../core/runtime.ts';
import { compileBreakpoint, type CompiledBreakpoint, type StepBreakpoint } from './breakpoints.ts';
import type { DebugSession } from './debug-session.ts';

/** Where a step is written, for frames: file and line, block and name. */
export interface StepPlace {
  file: string;
  line: number;
  block?: string;
  name?: string;
}

export interface DebugTargetOptions {
  /** Where logpoints write; default the runtime's own log, so the line lands beside the run's other lines. */
  log?: Logger;
  /** `live` (default), or what a replay re-runs (`replay of r5`). */
  label?: string;
  integration?: string;
  /** The file and line of a step of this runtime's definition (shared/step-paths.ts over its texts). */
  locate?(step: string): StepPlace | undefined;
}

/**
 * One runtime a debug session is attached to: the engine's hook for its runs, with its CEL
 * environment (functions bound to it), redactor, clock and log. Breakpoints compile here once per
 * runtime, not per message.
 */
export class DebugTarget implements DebugHook {
  readonly cel: CelEnvironment;
  readonly clock: Clock;
  readonly log: Logger;
  readonly label: string;
  readonly integration: string | undefined;
  private readonly redactor: SecretRedactor;
  private readonly compiledBreakpoints = new Map<StepBreakpoint, CompiledBreakpoint | undefined>();

  constructor(
    private readonly session: DebugSession,
    runtime: Runtime,
    private readonly options: DebugTargetOptions,
  ) {
    this.cel = runtime.definition.cel;
    this.clock = runtime.definition.host.clock;
    this.redactor = runtime.definition.redactor;
    this.log = options.log ?? runtime.logger;
    this.label = options.label ?? 'live';
    this.integration = options.integration;
  }

  get armed(): boolean {
    return this.session.armed;
  }

  begin(_flow: string, runId: string, msg: Message, parent: DebugRun | undefined): DebugRun {
    if (parent === undefined) return { hook: this, threadRunId: runId, root: msg, callers: [], at: undefined };
    return { hook: this, threadRunId: parent.threadRunId, root: parent.root, callers: parent.at === undefined ? parent.callers : [...parent.callers, parent.at], at: undefined };
  }

  beforeStep(step: Step, msg: Message, run: RunContext): Promise<DebugResume> | undefined {
    return this.session.beforeStep(this, step, msg, run);
  }

  ended(run: DebugRun, result: FlowResult): void {
    this.session.ended(run, result);
  }

  release(why: string): void {
    this.session.release(this, why);
  }

  locate(step: string): StepPlace | undefined {
    return this.options.locate?.(step);
  }

  /** The breakpoint compiled here; undefined when it does not compile (setBreakpoints said so). */
  compiled(bp: StepBreakpoint): CompiledBreakpoint | undefined {
    if (this.compiledBreakpoints.has(bp)) return this.compiledBreakpoints.get(bp);
    let compiled: CompiledBreakpoint | undefined;
    try {
      compiled = compileBreakpoint(bp, this.cel);
    } catch {
      compiled = undefined;
    }
    this.compiledBreakpoints.set(bp, compiled);
    return compiled;
  }

  forgetCompiled(): void {
    this.compiledBreakpoints.clear();
  }

  /** A logpoint's line: text parts as written, values as text (strings bare, others as JSON). */
  logLine(parts: ReadonlyArray<string | CompiledCel>, activation: CelActivation): string | Promise<string> {
    const values = parts.map((p) => (typeof p === 'string' ? p : p.evaluate(activation)));
    if (values.some((v) => v instanceof Promise)) return Promise.all(values).then((all) => all.map(asText).join(''));
    return values.map(asText).join('');
  }

  /** Secrets this runtime knows masked in a value or text meant for people. */
  masked<T>(value: T): T {
    return this.redactor.redactValue(value) as T;
  }
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
  } catch {
    return String(value);
  }
}
