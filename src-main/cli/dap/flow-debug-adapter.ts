import { userInfo } from 'node:os';
import { basename, resolve } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { PausedRunView } from '../../../shared/debugger-types.ts';
import { DebugSession, errorMessage, FRAMES_PER_THREAD, LoadError, formatProblem, type LogRecord, type StepBreakpoint } from '../../runtime/index.ts';
import { DapArguments, optionalText } from './dap-arguments.ts';
import type { DapWire } from './dap-wire.ts';
import { pathOfExpression, preview, typeName, VariableHandles } from './dap-variables.ts';
import { FlowProgram, type LaunchArguments } from './flow-program.ts';

/** The thread that stands for every run not paused: the client's pause button needs one. */
const ALL_RUNS = 1;

/**
 * Requests whose answer the protocol puts before the events they cause ("the debug adapter first
 * sends the response and then a stopped event"): VS Code marks the thread running when the answer
 * comes, so a `stopped` sent before it would leave a paused run shown as running.
 */
const ANSWER_BEFORE_EVENTS = new Set(['continue', 'next', 'stepIn', 'stepOut', 'pause']);

/** What this adapter does, told truthfully in `initialize`'s answer. */
export const CAPABILITIES: DebugProtocol.Capabilities = {
  supportsConfigurationDoneRequest: true,
  supportsConditionalBreakpoints: true,
  supportsHitConditionalBreakpoints: true,
  supportsLogPoints: true,
  supportsEvaluateForHovers: true,
  supportsSetVariable: true,
  supportsSetExpression: true,
  supportsTerminateRequest: true,
  // The program runs inside the adapter: disconnect always ends it, so the client is offered no choice.
  supportTerminateDebuggee: false,
  // Continue and the steps always act on the one thread named (allThreadsContinued: false, which the
  // protocol allows), so there is no singleThread argument for a client to set.
  supportsSingleThreadExecutionRequests: false,
  supportsStepBack: false,
  supportsRestartRequest: false,
  supportsFunctionBreakpoints: false,
  supportsDataBreakpoints: false,
  supportsExceptionInfoRequest: false,
  supportsLoadedSourcesRequest: false,
  supportsCompletionsRequest: false,
  supportsReadMemoryRequest: false,
  exceptionBreakpointFilters: [],
};

/**
 * `flow-studio debug --dap`: the Debug Adapter Protocol over a wire, for VS Code and any DAP
 * client. Threads are paused runs (plus one that stands for all running ones), frames are the
 * steps with their YAML file and line, scopes are the message's body, vars and headers, evaluate
 * runs CEL in the paused run, setVariable / setExpression edit its message. The engine side is the
 * same debug session the studio's debugger drives.
 */
export class FlowDebugAdapter {
  private readonly session = new DebugSession();
  private readonly handles = new VariableHandles();
  /** Breakpoints by source path, as the client last set them. */
  private readonly bySource = new Map<string, StepBreakpoint[]>();
  private program: FlowProgram | undefined;
  private nextBreakpoint = 1;
  private clientName = 'a DAP client';
  private launched: LaunchArguments | undefined;
  private readonly threadsSeen = new Set<number>();
  /** Events held while a request of ANSWER_BEFORE_EVENTS is answered, sent right after its answer. */
  private held: Array<Omit<DebugProtocol.Event, 'seq'>> | undefined;

  constructor(
    private readonly wire: DapWire,
    private readonly exit: (code: number) => void,
  ) {
    this.session.listen({
      paused: (p) => this.stopped(p),
      resumed: (thread) => {
        this.handles.forget(thread);
        this.event('continued', { threadId: thread, allThreadsContinued: false });
      },
      ended: (thread, result) => {
        this.threadsSeen.delete(thread);
        this.event('thread', { reason: 'exited', threadId: thread });
        if (result.outcome === 'failed') this.output('stderr', `a run failed: ${result.error?.message ?? 'failed'}\n`);
      },
      output: (o) => this.event('output', { category: o.category, output: `${o.text}\n`, ...this.sourceOf(o.step) }),
      // Checked again in the program's CEL environment once it is loaded: tell the client of those that cannot work after all.
      checked: (checks) => {
        for (const c of checks) if (!c.verified) this.event('breakpoint', { reason: 'changed', breakpoint: { id: c.id, verified: false, message: c.message } });
      },
    });
  }

  async handle(message: DebugProtocol.ProtocolMessage): Promise<void> {
    if (message.type !== 'request') return;
    const request = message as DebugProtocol.Request;
    const held = ANSWER_BEFORE_EVENTS.has(request.command) && this.held === undefined ? (this.held = []) : undefined;
    try {
      const body = await this.dispatch(request);
      this.respond(request, true, body);
      if (request.command === 'terminate') await this.stopProgram();
      if (request.command === 'disconnect') await this.end();
    } catch (err) {
      this.respond(request, false, undefined, errorMessage(err));
    } finally {
      if (held) {
        this.held = undefined;
        for (const e of held) this.wire.send(e);
      }
    }
  }

  private async dispatch(request: DebugProtocol.Request): Promise<unknown> {
    const args = new DapArguments(request.command, request.arguments);
    switch (request.command) {
      case 'initialize':
        this.clientName = String(args.values.clientName ?? args.values.clientID ?? this.clientName);
        return CAPABILITIES;
      case 'launch':
        return this.launch(args.values as unknown as LaunchArguments);
      case 'setBreakpoints':
        return this.setBreakpoints(args);
      case 'setExceptionBreakpoints':
        return { breakpoints: [] };
      case 'configurationDone':
        return this.configurationDone();
      case 'threads':
        return this.threads();
      case 'stackTrace':
        return this.stackTrace(args.number('threadId'), args.optionalNumber('startFrame'), args.optionalNumber('levels'));
      case 'scopes':
        return this.scopes(args.number('frameId'));
      case 'variables':
        return { variables: this.variables(args.number('variablesReference')) };
      case 'evaluate':
        return this.evaluate(args.text('expression'), args.optionalNumber('frameId'));
      case 'setVariable':
        return this.setVariable(args.number('variablesReference'), args.text('name'), args.text('value'));
      case 'setExpression':
        return this.setExpression(args.text('expression'), args.text('value'), args.optionalNumber('frameId'));
      case 'continue':
      case 'next':
      case 'stepIn':
      case 'stepOut':
        return this.resume(args.number('threadId'), request.command);
      case 'pause': {
        const thread = args.number('threadId');
        this.session.requestPause(thread === ALL_RUNS ? undefined : thread);
        return undefined;
      }
      case 'disconnect':
      case 'terminate':
        return undefined;
      default:
        throw new Error(`${request.command} is not supported by flow-studio debug; see its capabilities`);
    }
  }

  private async launch(args: LaunchArguments): Promise<undefined> {
    if (this.program) throw new Error('this session already launched a program; start another debug session for another one');
    this.launched = args;
    this.program = await FlowProgram.open(args, this.session, (record) => this.log(record));
    this.output('console', args.replay !== undefined ? `replaying run ${args.replay} of ${this.program.integration} once configuration is done\n` : `debugging ${this.program.integration} (${this.program.dir})\n`);
    this.event('initialized', {});
    return undefined;
  }

  private async configurationDone(): Promise<undefined> {
    const program = this.requireProgram();
    if (this.launched?.replay !== undefined) {
      void this.runReplay(program, this.launched.replay);
      return undefined;
    }
    try {
      const runtime = await program.serve();
      for (const c of runtime.describe().connectors) {
        const url = c.details?.url;
        if (typeof url === 'string') this.output('console', `connector ${c.name} listening on ${url}\n`);
      }
    } catch (err) {
      const text = err instanceof LoadError ? err.problems.map(formatProblem).join('\n') : errorMessage(err);
      this.output('stderr', `${text}\n`);
      this.terminated();
      throw new Error(`the program did not start: ${text.split('\n')[0]}`);
    }
    return undefined;
  }

  private async runReplay(program: FlowProgram, id: string): Promise<void> {
    try {
      const { run } = await program.replay(id);
      this.output('console', `replay of ${id} ended ${run?.outcome ?? 'without a run'}${run?.error ? `: ${run.error}` : ''}\n`);
    } catch (err) {
      this.output('stderr', `replay of ${id} failed: ${errorMessage(err)}\n`);
    }
    this.terminated();
  }

  private setBreakpoints(args: DapArguments): DebugProtocol.SetBreakpointsResponse['body'] {
    const program = this.requireProgram();
    const source = args.values.source as DebugProtocol.Source | undefined;
    if (source === null || typeof source !== 'object' || typeof source.path !== 'string') throw new Error('setBreakpoints needs "source": {"path": "<definition file>"}');
    const path = resolve(source.path);
    const wanted = sourceBreakpoints(args.values);
    const answers: DebugProtocol.Breakpoint[] = [];
    const set: StepBreakpoint[] = [];
    const before = this.bySource.get(path) ?? [];
    for (const b of wanted) {
      if (!program.texts.some((t) => t.file === path)) {
        answers.push({ id: this.nextBreakpoint++, verified: false, line: b.line, message: `${source.name ?? path} is not a definition file of ${program.integration}` });
        continue;
      }
      const found = program.stepAtLine(path, b.line);
      if ('problem' in found) {
        answers.push({ id: this.nextBreakpoint++, verified: false, line: b.line, source, message: found.problem });
        continue;
      }
      const { step } = found;
      const spec: Omit<StepBreakpoint, 'id'> = { step: step.path, ...optional('condition', b.condition), ...optional('hitCondition', b.hitCondition), ...optional('logMessage', b.logMessage) };
      // Clients send a file's whole list again whenever one of its breakpoints changes: one that
      // stays as it was keeps its id, and so its hit count (`5` still means the fifth hit).
      const kept = before.find((k) => sameBreakpoint(k, spec) && !set.some((s) => s.id === k.id));
      const id = kept?.id ?? this.nextBreakpoint++;
      const bp: StepBreakpoint = { id, ...spec };
      set.push(bp);
      answers.push({ id, verified: true, line: found.line, source, message: step.path });
    }
    this.bySource.set(path, set);
    const checks = this.session.setBreakpoints([...this.bySource.values()].flat());
    for (const c of checks) {
      const answer = answers.find((a) => a.id === c.id);
      if (answer && !c.verified) Object.assign(answer, { verified: false, message: c.message });
    }
    return { breakpoints: answers };
  }

  private threads(): DebugProtocol.ThreadsResponse['body'] {
    const threads: DebugProtocol.Thread[] = [{ id: ALL_RUNS, name: 'running flows' }];
    for (const p of this.session.pausedRuns()) threads.push({ id: p.thread, name: `${p.flow} ${p.runId} (paused before ${p.step})` });
    return { threads };
  }

  private stackTrace(threadId: number, startFrame = 0, levels = 0): DebugProtocol.StackTraceResponse['body'] {
    if (threadId === ALL_RUNS) return { stackFrames: [], totalFrames: 0 };
    const run = this.session.pausedRun(threadId);
    const all = run.frames.map((f): DebugProtocol.StackFrame => ({
      id: f.id,
      name: `${f.block ?? 'step'}${f.name ? ` ${f.name}` : ''} — ${f.step}`,
      line: f.line ?? 0,
      column: 1,
      ...(f.file !== undefined ? { source: { path: f.file, name: basename(f.file) } } : {}),
    }));
    return { stackFrames: all.slice(startFrame, levels > 0 ? startFrame + levels : undefined), totalFrames: all.length };
  }

  private scopes(frameId: number): DebugProtocol.ScopesResponse['body'] {
    const run = this.runOfFrame(frameId);
    const scope = (name: string, path: Array<string | number> | undefined, value: unknown): DebugProtocol.Scope => ({
      name,
      presentationHint: 'locals',
      variablesReference: this.handles.refOf(run.thread, path, value),
      expensive: false,
    });
    const scopes = [scope('Body', ['body'], wrapScalar(run.message.body)), scope('Vars', ['vars'], run.message.vars)];
    if (run.message.headers !== undefined) scopes.push(scope('Headers', undefined, run.message.headers));
    return { scopes };
  }

  /** A reference the client got from scopes, variables or evaluate; refused once its run went on. */
  private variables(ref: number): DebugProtocol.Variable[] {
    if (this.handles.get(ref) === undefined) throw new Error(`variablesReference ${ref} is no longer valid: its run went on (references last until a run continues or steps); ask for its scopes again`);
    return this.handles.children(ref);
  }

  private async evaluate(expression: string, frameId: number | undefined): Promise<DebugProtocol.EvaluateResponse['body']> {
    const run = frameId !== undefined ? this.runOfFrame(frameId) : this.session.pausedRuns().at(-1);
    if (!run) throw new Error('no run is paused: evaluate runs CEL in a paused run (body, vars, headers)');
    const value = await this.session.evaluate(run.thread, expression);
    return { result: preview(value), type: typeName(value), variablesReference: this.handles.refOf(run.thread, undefined, value) };
  }

  private async setVariable(ref: number, name: string, text: string): Promise<DebugProtocol.SetVariableResponse['body']> {
    const container = this.handles.get(ref);
    if (!container?.path) throw new Error('only the message’s body and vars can be edited (headers and evaluation results cannot)');
    const key: string | number = Array.isArray(container.value) ? Number(name.replace(/^\[|\]$/g, '')) : name;
    const path = container.path[0] === 'body' && isWrapped(container.value) ? ['body'] : [...container.path, key];
    const value = await this.valueOf(container.thread, text);
    this.edited(container.thread, this.session.edit(container.thread, path, value, this.who()));
    return { value: preview(value), type: typeName(value), variablesReference: 0 };
  }

  private async setExpression(expression: string, text: string, frameId: number | undefined): Promise<DebugProtocol.SetExpressionResponse['body']> {
    const run = frameId !== undefined ? this.runOfFrame(frameId) : this.session.pausedRuns().at(-1);
    if (!run) throw new Error('no run is paused');
    const path = pathOfExpression(expression);
    if (!path) throw new Error(`${expression} is not a field of the message; write body.customer, vars.items[0].qty or body["odd key"]`);
    const value = await this.valueOf(run.thread, text);
    this.edited(run.thread, this.session.edit(run.thread, path, value, this.who()));
    return { value: preview(value), type: typeName(value), variablesReference: 0 };
  }

  private resume(threadId: number, action: 'continue' | 'next' | 'stepIn' | 'stepOut'): DebugProtocol.ContinueResponse['body'] {
    if (threadId === ALL_RUNS) {
      for (const p of this.session.pausedRuns()) this.session.resume(p.thread, action, this.who());
      return { allThreadsContinued: true };
    }
    this.session.resume(threadId, action, this.who());
    return { allThreadsContinued: false };
  }

  /** After an edit, the run's variable references show the message as it is now (the Body scope's scalar wrapped as scopes() wraps it). */
  private edited(thread: number, view: PausedRunView): void {
    this.handles.refresh(thread, (path) => {
      if (path.length === 1 && path[0] === 'body') return wrapScalar(view.message.body);
      let value: unknown = view.message;
      for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined;
      return value;
    });
  }

  /** A value typed in the client: JSON (`"alice"`, `42`, `{"a": 1}`), else CEL evaluated in the paused run (`body.qty * 2`). */
  private async valueOf(thread: number, text: string): Promise<unknown> {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      try {
        return await this.session.evaluate(thread, text);
      } catch (err) {
        throw new Error(`${text} is neither JSON nor CEL that evaluates here: ${errorMessage(err)}`);
      }
    }
  }

  private runOfFrame(frameId: number): PausedRunView {
    return this.session.pausedRun(Math.floor(frameId / FRAMES_PER_THREAD));
  }

  private stopped(p: PausedRunView): void {
    if (!this.threadsSeen.has(p.thread)) {
      this.threadsSeen.add(p.thread);
      this.event('thread', { reason: 'started', threadId: p.thread });
    }
    this.event('stopped', {
      reason: p.reason,
      threadId: p.thread,
      allThreadsStopped: false,
      description: `${p.flow} ${p.runId} paused before ${p.step}`,
      ...(p.breakpointId !== undefined ? { hitBreakpointIds: [p.breakpointId] } : {}),
    });
  }

  private log(record: LogRecord): void {
    // A logpoint's line comes as an output event of its own.
    if (record.logpoint === true) return;
    const { time: _time, level, msg, ...fields } = record;
    const rest = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    this.output(level === 'error' || level === 'warn' ? 'stderr' : 'stdout', `${level} ${msg}${rest}\n`);
  }

  private sourceOf(step: string): Partial<DebugProtocol.OutputEvent['body']> {
    const place = this.program?.locate(step);
    return place ? { source: { path: place.file, name: basename(place.file) }, line: place.line } : {};
  }

  private who(): string {
    let login = '';
    try {
      login = userInfo().username;
    } catch {
      // No login name (a container without a passwd entry): the client's name says enough.
    }
    return login ? `${this.clientName} (${login})` : this.clientName;
  }

  private requireProgram(): FlowProgram {
    if (!this.program) throw new Error('launch first: {"program": "<integration folder>"}');
    return this.program;
  }

  private terminated(): void {
    this.event('terminated', {});
  }

  /**
   * `terminate`: the program stops (paused runs fail, saying so) and the client is told with
   * `terminated`; it answers with `disconnect`, which ends the adapter, as the protocol has it.
   */
  private async stopProgram(): Promise<void> {
    if (!this.program) return;
    await this.program.close();
    this.program = undefined;
    this.terminated();
  }

  private async end(): Promise<void> {
    await this.program?.close();
    this.program = undefined;
    await this.wire.close();
    this.exit(0);
  }

  private output(category: 'console' | 'stdout' | 'stderr', output: string): void {
    this.event('output', { category, output });
  }

  private event(event: string, body: unknown): void {
    const message = { type: 'event', event, body } as DebugProtocol.Event;
    if (this.held) this.held.push(message);
    else this.wire.send(message);
  }

  private respond(request: DebugProtocol.Request, success: boolean, body?: unknown, message?: string): void {
    this.wire.send({ type: 'response', request_seq: request.seq, command: request.command, success, ...(message !== undefined ? { message } : {}), ...(body !== undefined ? { body } : {}) } as DebugProtocol.Response);
  }
}

/** setBreakpoints' `breakpoints` (or the older `lines`), each checked: a line number, and text for the rest. */
function sourceBreakpoints(values: Record<string, unknown>): DebugProtocol.SourceBreakpoint[] {
  const list = values.breakpoints ?? (Array.isArray(values.lines) ? values.lines.map((line: unknown) => ({ line })) : []);
  if (!Array.isArray(list)) throw new Error(`"breakpoints" must be a list of {"line": <number>}, not ${JSON.stringify(list)}`);
  return list.map((b: unknown, i) => {
    if (b === null || typeof b !== 'object') throw new Error(`"breakpoints[${i}]" must be {"line": <number>, …}, not ${JSON.stringify(b)}`);
    const { line, condition, hitCondition, logMessage } = b as Record<string, unknown>;
    if (typeof line !== 'number' || !Number.isInteger(line)) throw new Error(`"breakpoints[${i}].line" must be a line number, not ${JSON.stringify(line)}`);
    const text = (name: string, value: unknown) => optionalText(value, `"breakpoints[${i}].${name}"`);
    return { line, ...dropUndefined({ condition: text('condition', condition), hitCondition: text('hitCondition', hitCondition), logMessage: text('logMessage', logMessage) }) };
  });
}

function sameBreakpoint(a: Omit<StepBreakpoint, 'id'>, b: Omit<StepBreakpoint, 'id'>): boolean {
  return a.step === b.step && a.condition === b.condition && a.hitCondition === b.hitCondition && a.logMessage === b.logMessage;
}

function dropUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value !== undefined && value !== '' ? ({ [key]: value } as Record<K, string>) : {};
}

/** A scalar or empty body shows as one variable, `(value)`, so it can be read and set like a field. */
function wrapScalar(body: unknown): unknown {
  return body !== null && typeof body === 'object' && Object.keys(body).length > 0 ? body : { '(value)': body };
}

function isWrapped(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && '(value)' in value;
}
