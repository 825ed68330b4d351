import { join } from 'node:path';
import type { DebugSession, DefinitionText, Runtime, TraceRecord } from '../../runtime/index.ts';
import { runFlowTest } from '../flow-tests/flow-test-runner.ts';
import { stubOfCall } from '../flow-tests/run-as-test.ts';
import type { FlowTest } from '../flow-tests/test-file-loader.ts';
import { StudioError } from '../studio-error.ts';

/** A run as it was recorded: the message it started with and the calls its steps made (with their answers, when kept). */
export interface RecordedRun {
  runId: string;
  flow: string;
  /** The message the run started with; absent when it was recorded without messages. */
  input?: { body?: unknown; vars?: unknown };
  calls: ReadonlyArray<{ kind: string; status?: number; detail?: Record<string, unknown> }>;
}

export interface ReplayOptions {
  integrationDir: string;
  /** Variables a run of the integration gets (bindings, env resources). */
  env: Record<string, string>;
  session: DebugSession;
  /** Attaches the session to the replay's runtime (file names and log as the caller wants them). */
  attach(session: DebugSession, runtime: Runtime, definitions: readonly DefinitionText[], label: string): () => void;
}

export interface Replayed {
  /** The replay's own run of the flow. */
  run: TraceRecord | undefined;
  /** Every step and run event of the replay, to store beside the other runs. */
  events: TraceRecord[];
}

/**
 * Runs a recorded run again against the current definition, under the debugger: its recorded
 * message goes into the flow's first step, and every outbound HTTP call is answered from what was
 * recorded (the flow-test machinery: a fresh embedded platform, stand-ins speaking the real wire),
 * so a failure seen once can be stepped through as often as needed. Stops at the session's
 * breakpoints like a live run.
 */
export async function replayRun(recorded: RecordedRun, o: ReplayOptions): Promise<Replayed> {
  if (recorded.input === undefined) {
    throw new StudioError(`run ${recorded.runId} was recorded without its message (no window or debugger watched it), so it cannot be replayed; send it again and replay the new run`);
  }
  const vars = recorded.input.vars ?? {};
  if (vars === null || typeof vars !== 'object' || Array.isArray(vars)) throw new StudioError(`run ${recorded.runId}: its recorded vars are not an object`);
  const http = recorded.calls.filter((c) => c.kind === 'http' && typeof c.detail?.url === 'string' && typeof c.detail?.method === 'string');
  const test = {
    name: `replay of ${recorded.runId}`,
    file: join(o.integrationDir, 'replay'),
    location: { file: o.integrationDir, line: 1, col: 1 },
    flow: recorded.flow,
    from: '0',
    env: o.env,
    input: { body: recorded.input.body ?? null, vars },
    stubs: { http: http.map((c) => stubOfCall(c.detail as Parameters<typeof stubOfCall>[0], c.status)) },
    expect: {},
  } as FlowTest;
  const label = `replay of ${recorded.runId}`;
  const result = await runFlowTest(test, o.integrationDir, {
    outbound: 'stubbed',
    onRuntime: (runtime, definitions) => o.attach(o.session, runtime, definitions, label),
  });
  const failed = result.failures.find((f) => f.what === 'definition' || f.what === 'input' || f.what === 'run');
  if (failed) throw new StudioError(failed.message);
  const run = result.events.filter((e) => e.kind === 'run' && e.flow === recorded.flow).at(-1);
  return { run, events: result.events };
}
