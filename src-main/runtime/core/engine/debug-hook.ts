import type { Message } from '../message.ts';
import type { FlowResult, RunContext, Step } from './chain.ts';

/**
 * The one place a debugger reaches into the engine: a check before each step. The studio's
 * debugger and the DAP adapter are two faces of one implementation (runtime/debug/); the engine
 * knows only this interface. A runtime with no debugger attached pays one `undefined` check per
 * step, one with a debugger but no breakpoint one more boolean read.
 */
export interface DebugHook {
  /** False while no breakpoint is set and no run is stepping or asked to pause: the engine skips beforeStep. */
  readonly armed: boolean;
  /** A top-level run starts (`parent` absent), or a flow-ref run inside one; undefined when this run is not debugged. */
  begin(flow: string, runId: string, msg: Message, parent: DebugRun | undefined): DebugRun | undefined;
  /**
   * Before `step` runs with `msg`: undefined to go on at once (no breakpoint matched, a logpoint
   * wrote its line), or a promise that settles when the person continues, steps or aborts.
   */
  beforeStep(step: Step, msg: Message, run: RunContext): Promise<DebugResume> | undefined;
  /** A run this hook began ended, with this result. */
  ended(run: DebugRun, result: FlowResult): void;
  /** The runtime stops: runs still paused fail, saying why, rather than hold the stop. */
  release?(why: string): void;
}

/** A run as its debugger follows it: the thread it belongs to and the frames that called it. */
export interface DebugRun {
  readonly hook: DebugHook;
  /** The top-level run this run belongs to; a flow-ref's run joins its caller's. */
  readonly threadRunId: string;
  /** The message the top-level run started with: what its source holds (run-hold.ts). */
  readonly root: Message;
  /** Steps of calling runs (flow-ref), outermost first. */
  readonly callers: readonly string[];
  /** The step this run is at, kept while armed: a flow-ref run's caller frame. */
  at: string | undefined;
}

/** How a paused run goes on: with this message (edited or not), or failed because the person aborted it. */
export type DebugResume = { message: Message; abort?: undefined } | { abort: string };
