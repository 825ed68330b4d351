/**
 * The debugger's plain data, shared by the runtime's debug session, the studio's Debugger panel
 * and the DAP adapter: paused runs with their frames and message, breakpoints on steps, and what
 * logpoints print. Steps are named by their setting path (shared/step-paths.ts).
 */

export type PauseReason = 'breakpoint' | 'step' | 'pause';
export type StepAction = 'continue' | 'next' | 'stepIn' | 'stepOut';

/** One frame of a paused run: the step it waits before, then each step that holds it (a switch, a lock, a flow-ref's caller). */
export interface DebugFrame {
  /** Unique among the frames of every paused run (DAP frame ids). */
  id: number;
  step: string;
  flow: string;
  block?: string;
  name?: string;
  /** Definition file (as the runtime was given it) and 1-based line of the step, when known. */
  file?: string;
  line?: number;
}

/** The message at the pause, as JSON (bytes as text or base64), secrets masked. */
export interface DebugMessage {
  body: unknown;
  vars: Record<string, unknown>;
  /** The request's headers (http) or the message's (queue, topic); credentials masked. */
  headers?: Record<string, unknown>;
}

/** A change a person made to a paused run's message. */
export interface MessageEdit {
  /** `body`, `body.customer`, `vars.items[0].qty`. */
  path: string;
  before: unknown;
  after: unknown;
  /** Who changed it: the studio, or the DAP client's name, with the person's login. */
  by: string;
  at: number;
}

export interface PausedRunView {
  /** The run's thread (DAP thread id); stays the same while the run is stepped. */
  thread: number;
  /** The top-level run; a flow-ref's run pauses as part of its caller's. */
  runId: string;
  flow: string;
  integration?: string;
  correlationId: string;
  /** The step the run waits before (the top frame). */
  step: string;
  reason: PauseReason;
  /** The breakpoint that matched, when one did. */
  breakpointId?: number;
  /** Epoch ms when it paused: the studio shows how long it has waited. */
  pausedAt: number;
  frames: DebugFrame[];
  message: DebugMessage;
  edits: MessageEdit[];
  /** `live`, or what a replay re-runs (`replay of r5`). */
  origin: string;
}

/** A line a logpoint wrote (or a breakpoint condition that failed to evaluate). */
export interface DebugOutput {
  text: string;
  category: 'console' | 'stderr';
  flow: string;
  step: string;
  runId: string;
  breakpointId?: number;
  at: number;
}

/** What a studio breakpoint is set with; the step is found from the file and line. */
export interface BreakpointInput {
  integration: string;
  /** Definition file, relative to the integration folder. */
  file: string;
  line: number;
  /**
   * The editor's text `line` is a line of, when it holds unsaved edits: the breakpoint goes on the
   * saved step that is the step at that line of this text (lines above it may have been typed).
   */
  text?: string;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
  enabled?: boolean;
}

/** A breakpoint of the studio's workspace, kept across restarts, following its step as lines move. */
export interface StudioBreakpoint {
  id: number;
  integration: string;
  file: string;
  /** The step it is on and that step's first line now; undefined step when the step is gone. */
  step?: string;
  line: number;
  block?: string;
  /** A digest of the step's text: where the step is in an editor's unsaved text (followStep). */
  digest?: string;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
  enabled: boolean;
  /** False when it cannot work as written (no step at the line, a condition that does not compile): `message` says why. */
  verified: boolean;
  message?: string;
}

/** Everything the Debugger panel shows. */
export interface DebuggerState {
  paused: PausedRunView[];
  breakpoints: StudioBreakpoint[];
}

/** A stored run replayed under the debugger: its recorded input and outbound answers, against the current definition. */
export interface ReplayResult {
  runId: string;
  replayOf: string;
  outcome: 'completed' | 'dropped' | 'failed';
  error?: string;
}

/** The studio's debugger calls (StudioApi). */
export interface DebuggerApi {
  debuggerState(): Promise<DebuggerState>;
  /** Sets a breakpoint on the step at that line (or its first line); a logpoint with `logMessage`. */
  addBreakpoint(input: BreakpointInput): Promise<StudioBreakpoint>;
  updateBreakpoint(id: number, change: Partial<Pick<BreakpointInput, 'condition' | 'hitCondition' | 'logMessage' | 'enabled' | 'line'>>): Promise<StudioBreakpoint>;
  removeBreakpoint(id: number): Promise<void>;
  /**
   * The editor's breakpoint lines after edits it is about to save (its decorations moved with
   * the text): each breakpoint follows to the step now at its line.
   */
  moveBreakpoints(integration: string, file: string, lines: Array<{ id: number; line: number }>, text: string): Promise<StudioBreakpoint[]>;
  /** Evaluates CEL in the paused run's context (`body`, `vars`, `headers`). */
  evaluateInRun(thread: number, expression: string): Promise<{ value: unknown }>;
  /** Replaces a field (`['body', 'customer']`) or the whole body or vars of a paused run's message. */
  editPausedMessage(thread: number, path: Array<string | number>, value: unknown): Promise<PausedRunView>;
  /** Goes on: to the next breakpoint, the next step (over), into a case, lock body or error chain, or out of it. */
  resumeRun(thread: number, action: StepAction): Promise<void>;
  /** The run fails with an error saying it was aborted in the debugger. */
  abortRun(thread: number): Promise<void>;
  /** Runs a stored run again under the debugger with its recorded input and outbound answers; resolves when it ends. */
  replayRun(runId: string): Promise<ReplayResult>;
}
