import { userInfo } from 'node:os';
import { relative } from 'node:path';
import type { DebuggerApi, PausedRunView, StudioBreakpoint } from '../../../shared/debugger-types.ts';
import type { FeedEvent } from '../../../shared/feed-events.ts';
import { type ComponentRegistry, DebugError, DebugSession, DefinitionSteps, readDefinitions, registryChainShapes, type Runtime } from '../../runtime/index.ts';
import { StudioError } from '../studio-error.ts';
import type { RunStore } from '../traces/run-store.ts';
import type { Workspace } from '../workspace.ts';
import { openDebuggerDb } from './debugger-store.ts';
import { replayRun } from './run-replay.ts';
import { StudioBreakpoints } from './studio-breakpoints.ts';

export interface StudioDebuggerOptions {
  workspace: Workspace;
  dataDir: string;
  registry: ComponentRegistry;
  runs: RunStore;
  pushFeed(event: FeedEvent): void;
  /** Variables a run of the integration gets (bindings, env resources); a replay uses them. */
  runEnv(integration: string): Promise<Record<string, string>>;
}

export interface StudioDebugger {
  api: DebuggerApi;
  /** Attaches the integration's debug session to a runtime the run manager loaded; returns the detach. */
  watchRuntime(integration: string, runtime: Runtime): () => void;
  /** Files of an integration changed on disk: its breakpoints follow their steps. */
  filesChanged(integration: string): void;
  close(): void;
}

/**
 * The studio's debugger: one debug session per integration (breakpoints name steps of its
 * flows), attached to each runtime the run manager starts and to replays; breakpoints kept in
 * studio.db per workspace; pauses, resumes and logpoint lines on the live feed.
 */
export function startStudioDebugger(o: StudioDebuggerOptions): StudioDebugger {
  const db = openDebuggerDb(o.dataDir);
  const shapes = registryChainShapes(o.registry);
  const breakpoints = new StudioBreakpoints(db.breakpoints(o.workspace.root), o.workspace, shapes);
  const sessions = new Map<string, DebugSession>();
  let nextThread = 2;
  const who = `studio${login()}`;

  const sessionOf = (integration: string): DebugSession => {
    let session = sessions.get(integration);
    if (session) return session;
    session = new DebugSession({ nextThread: () => nextThread++ });
    sessions.set(integration, session);
    const push = (action: Extract<FeedEvent, { kind: 'debug' }>['action'], fields: Partial<Extract<FeedEvent, { kind: 'debug' }>> = {}) =>
      o.pushFeed({ kind: 'debug', action, at: Date.now(), integration, ...fields });
    session.listen({
      paused: (p) => push('paused', { thread: p.thread }),
      resumed: (thread) => push('resumed', { thread }),
      ended: (thread) => push('ended', { thread }),
      output: (output) => push('output', { output }),
    });
    sync(integration, session);
    return session;
  };

  /** Sends the integration's breakpoints, followed to their steps, to its session; answers their views. */
  const sync = (integration: string, session = sessions.get(integration)): StudioBreakpoint[] => {
    const list = breakpoints.follow(integration);
    // Checked also while the integration is not running, so a condition that cannot work says so at once.
    if (session || list.length > 0) breakpoints.checked((session ?? sessionOf(integration)).setBreakpoints(breakpoints.forSession(list)));
    return list.map((b) => breakpoints.view(b));
  };
  const changed = (integration: string): void => {
    sync(integration);
    o.pushFeed({ kind: 'debug', action: 'breakpoints', at: Date.now(), integration });
  };

  const threadOf = (thread: number): DebugSession => {
    for (const s of sessions.values()) if (s.pausedRuns().some((p) => p.thread === thread)) return s;
    throw StudioError.notFound(`no run is paused as thread ${thread}; it went on or ended`);
  };
  /** Debug-session refusals (an expression that does not compile) are the person's to fix. */
  const asked = <T>(call: () => T): T => {
    try {
      return call();
    } catch (err) {
      if (err instanceof DebugError) throw new StudioError(err.message);
      throw err;
    }
  };
  const stepsOf = (integration: string, texts: ReadonlyArray<{ file: string; text: string }>): DefinitionSteps => {
    const dir = o.workspace.dirOf(integration);
    return new DefinitionSteps(texts.map((t) => ({ file: t.file.startsWith('/') ? relative(dir, t.file) : t.file, text: t.text })), shapes);
  };

  const api: DebuggerApi = {
    async debuggerState() {
      const paused: PausedRunView[] = [];
      for (const s of sessions.values()) paused.push(...s.pausedRuns());
      const all = [...new Set(db.breakpoints(o.workspace.root).list().map((b) => b.integration))].flatMap((i) => sync(i));
      return { paused: paused.sort((a, b) => a.pausedAt - b.pausedAt), breakpoints: all };
    },
    async addBreakpoint(input) {
      o.workspace.dirOf(input.integration);
      const bp = breakpoints.add(input);
      changed(input.integration);
      return breakpoints.view(breakpoints.follow(input.integration).find((b) => b.id === bp.id) ?? bp);
    },
    async updateBreakpoint(id, change) {
      const bp = breakpoints.update(id, change);
      changed(bp.integration);
      return breakpoints.view(breakpoints.follow(bp.integration).find((b) => b.id === id) ?? bp);
    },
    async removeBreakpoint(id) {
      const bp = breakpoints.get(id);
      breakpoints.remove(id);
      changed(bp.integration);
    },
    async moveBreakpoints(integration, file, lines, text) {
      breakpoints.moved(integration, file, lines, text);
      changed(integration);
      return sync(integration).filter((b) => b.file === file);
    },
    async evaluateInRun(thread, expression) {
      const session = threadOf(thread);
      try {
        return { value: await session.evaluate(thread, expression) };
      } catch (err) {
        if (err instanceof DebugError) throw new StudioError(err.message);
        throw err;
      }
    },
    async editPausedMessage(thread, path, value) {
      if (!Array.isArray(path)) throw new StudioError('path is a list such as ["body", "customer"]');
      return asked(() => threadOf(thread).edit(thread, path, value, who));
    },
    async resumeRun(thread, action) {
      if (!['continue', 'next', 'stepIn', 'stepOut'].includes(action)) throw new StudioError(`"${String(action)}" is not a way to go on: continue, next, stepIn or stepOut`);
      asked(() => threadOf(thread).resume(thread, action, who));
    },
    async abortRun(thread) {
      asked(() => threadOf(thread).abort(thread, who));
    },
    async replayRun(runId) {
      const found = o.runs.detail(String(runId));
      if (!found?.detail) throw StudioError.notFound(`run ${runId} is no longer stored with its messages; pick a newer run`);
      const { summary, detail } = found;
      const integration = summary.integration;
      const replayed = await replayRun(
        { runId: summary.runId, flow: summary.flow, input: detail.input as { body?: unknown; vars?: unknown } | undefined, calls: detail.calls },
        {
          integrationDir: o.workspace.dirOf(integration),
          env: await o.runEnv(integration),
          session: sessionOf(integration),
          attach: (session, runtime, definitions, label) => session.attach(runtime, { label, integration, locate: stepsOf(integration, definitions).locate }),
        },
      );
      for (const e of replayed.events) o.runs.record(integration, e);
      const run = replayed.run;
      if (!run) throw new StudioError('the replay did not produce a run; is the flow still in the definition?');
      o.runs.markRun(run.runId, { forkedFrom: summary.runId, forkedAt: 'replay' });
      return { runId: run.runId, replayOf: summary.runId, outcome: run.outcome, ...(run.error !== undefined ? { error: run.error } : {}) };
    },
  };

  return {
    api,
    watchRuntime(integration, runtime) {
      const dir = o.workspace.dirOf(integration);
      const texts = readDefinitions(o.workspace.definitionPaths(integration)).map((t) => ({ file: relative(dir, t.file), text: t.text }));
      const session = sessionOf(integration);
      const detach = session.attach(runtime, { integration, locate: new DefinitionSteps(texts, shapes).locate });
      sync(integration, session);
      return detach;
    },
    filesChanged(integration) {
      if (db.breakpoints(o.workspace.root).list().some((b) => b.integration === integration)) changed(integration);
    },
    close() {
      db.close();
    },
  };
}

function login(): string {
  try {
    const name = userInfo().username;
    return name ? ` (${name})` : '';
  } catch {
    return '';
  }
}
