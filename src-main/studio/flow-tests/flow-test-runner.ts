import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { parse } from 'yaml';
import { ManualClock, systemClock, type Clock } from '../../../shared/clock.ts';
import { seedResourcesFromDir, startPlatformServer, type PlatformEvent, type PlatformServer } from '../../platform/index.ts';
import {
  definitionFilesIn,
  envFilesIn,
  errorMessage,
  LoadError,
  type LogRecord,
  Message,
  readDefinitions,
  type Runtime,
  startRuntime,
  type StartedRuntime,
  type DefinitionText,
  type TraceRecord,
} from '../../runtime/index.ts';
import { SseReader } from '../requests/sse-reader.ts';
import { checkExpectations, type Failure, type Observed } from './expectations.ts';
import { inputOf, type ResolvedInput } from './test-input.ts';
import { standInsFor } from './outside-stand-ins.ts';
import type { FlowTest } from './test-file-loader.ts';

export interface FlowTestResult {
  name: string;
  file: string;
  flow: string;
  passed: boolean;
  failures: Failure[];
  durationMs: number;
  /** Every step and run event of the test, in order (nested flows included): coverage and the studio's trace view. */
  events: TraceRecord[];
  logs: LogRecord[];
}

/** How long side effects on the platform (a queue consumer's KV write) get to appear. */
const SETTLE_MS = 5000;

/**
 * Runs one test: a fresh platform server (127.0.0.1, a free port, its own temp data dir), the
 * integration's definitions loaded against it through the delegation API exactly as `run` does,
 * outbound calls answered by the test's stubs, the input sent, then every expectation checked.
 * Everything is torn down before it returns, whatever happened.
 */
export interface RunFlowTestOptions {
  /** `live` lets outbound HTTP, notes and docstore calls through (a re-run that asks for it); default stubbed. */
  outbound?: 'stubbed' | 'live';
  /** Told about the test's runtime once it is loaded (a debugger attaches); what it returns is called before it stops. */
  onRuntime?: (runtime: Runtime, definitions: readonly DefinitionText[]) => () => void;
}

export async function runFlowTest(test: FlowTest, integrationDir: string, options: RunFlowTestOptions = {}): Promise<FlowTestResult> {
  const started = performance.now();
  const events: TraceRecord[] = [];
  const logs: LogRecord[] = [];
  const result = (failures: Failure[]): FlowTestResult => ({
    name: test.name,
    file: test.file,
    flow: test.flow,
    passed: failures.length === 0,
    failures,
    durationMs: Math.round(performance.now() - started),
    events,
    logs,
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'flow-test-'));
  const token = randomBytes(24).toString('base64url');
  const definitions = readDefinitions(definitionFilesIn(integrationDir));
  // A test with clock.advance runs platform, runtime and stubs on one virtual clock, moved by a
  // driver while the test runs. A schedule flow's ticks are computed instead (test-input.ts), on
  // the system clock, so its own source does not fire them a second time.
  const virtual = test.clock?.advance !== undefined && !isScheduleFlow(definitions, test.flow);
  const start = test.clock?.start ? Date.parse(test.clock.start) : Date.now();
  const clock: Clock = virtual ? new ManualClock(start) : systemClock;
  let driver: ReturnType<ManualClock['drive']> | undefined;
  const standIns = standInsFor(test.stubs, { host: '127.0.0.1', port: 0 }, clock);
  const sandbox = options.outbound === 'live' ? { listen: standIns.sandbox.listen } : standIns.sandbox;
  const platformEvents: PlatformEvent[] = [];
  let platform: PlatformServer | undefined;
  let runtime: Runtime | undefined;
  let closeServices: (() => Promise<void>) | undefined;
  let detachWatcher: (() => void) | undefined;
  try {
    platform = await startPlatformServer({ host: '127.0.0.1', port: 0, dataDir, token, onInternalError: () => {}, clock });
    await seedResourcesFromDir(platform.resources, integrationDir);
    platform.events.subscribe((e) => {
      platformEvents.push(e);
      driver?.touch(); // the platform did something: the test is not quiet yet
    });
    let started: StartedRuntime;
    try {
      started = await startRuntime({
        definitions,
        variables: { ...test.env },
        envResources: envFilesIn(integrationDir),
        platform: { url: platform.url, token },
        identity: { deploymentId: 'flow-test', instanceId: 'flow-test-1' },
        logLevel: 'debug',
        logSinks: [(r) => logs.push(r)],
        sandbox,
        start: false,
        clock,
        // The expectations read every run's trace: none may go untraced however busy the machine.
        traceEveryRun: true,
      });
    } catch (err) {
      if (err instanceof LoadError) return result([{ what: 'definition', message: `the definition does not load:\n${err.message}` }]);
      throw err;
    }
    runtime = started.runtime;
    closeServices = () => started.services.close();
    detachWatcher = options.onRuntime?.(runtime, definitions);
    runtime.traces.add({
      snapshots: true,
      emit: (e) => {
        events.push(e);
        driver?.touch();
      },
    });
    await runtime.start();
    // Jumps to the next timer whenever the test has gone quiet, up to start + advance.
    if (clock instanceof ManualClock) driver = clock.drive(start + test.clock!.advance!);
    let input: ResolvedInput;
    try {
      input = inputOf(test, runtime);
    } catch (err) {
      return result([{ what: 'input', message: errorMessage(err) }]);
    }
    const observed = await drive(runtime, input, test);
    observed.calls = standIns.calls;
    observed.events = events;
    const inspect = platform.inspect;
    // What the expectations look at, read from the platform before each check.
    const platformView = async () => {
      const entries = new Map<string, Awaited<ReturnType<typeof inspect.kv.entry>>>();
      for (const e of test.expect.kv ?? []) entries.set(`${e.namespace}\0${e.key}`, await inspect.kv.entry(e.namespace, e.key));
      const claims = test.expect.leases?.length ? await inspect.leases.claims() : [];
      const now = clock.now();
      return {
        published: (kind: 'queue' | 'topic') =>
          platformEvents.filter((e): e is Extract<PlatformEvent, { type: 'queue.publish' | 'topic.publish' }> => e.type === `${kind}.publish`).map((e) => ({ subject: e.subject, body: e.body })),
        kv: (namespace: string, key: string) => {
          const entry = entries.get(`${namespace}\0${key}`);
          return entry ? { version: entry.version, value: entry.value === undefined ? undefined : parseStored(entry.value) } : undefined;
        },
        leaseHeld: (name: string) => claims.some((c) => c.name === name && c.expiresAt > now),
      };
    };
    // Side effects another flow makes (a queue consumer) land a little later: expectations on the
    // platform are re-checked until they hold or the settle time is up, never a fixed sleep.
    const deadline = Date.now() + SETTLE_MS;
    let failures = checkExpectations(test, observed, await platformView());
    while (failures.length > 0 && failures.every((f) => f.platform) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      failures = checkExpectations(test, observed, await platformView());
    }
    return result(failures);
  } catch (err) {
    return result([{ what: 'run', message: errorMessage(err) }]);
  } finally {
    await driver?.stop();
    detachWatcher?.();
    await runtime?.stop(2000).catch(() => {});
    await closeServices?.().catch(() => {});
    await standIns.close().catch(() => {});
    await platform?.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Sends the input the way the test says: a real request to the route, ticks of the virtual clock, or the message handed to the flow. */
async function drive(runtime: Runtime, input: ResolvedInput, test: FlowTest): Promise<Observed> {
  if (input.kind === 'http') {
    const res = await request(input.url, { method: input.method, headers: input.headers, body: input.body, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const text = await res.body.text();
    const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
    const sse = String(res.headers['content-type'] ?? '').startsWith('text/event-stream')
      ? new SseReader(0).push(text.endsWith('\n\n') ? text : `${text}\n\n`).filter((f) => !f.heartbeat)
      : undefined;
    // The run event is emitted before the response is written, so it is here by now.
    return { response: { status: res.statusCode, headers, text, sse }, run: undefined, flow: test.flow, calls: [], events: [] };
  }
  if (input.kind === 'schedule') {
    let last;
    for (const at of input.ticks) last = await runtime.run(test.flow, structuredClone(input.body), { scheduledAt: new Date(at).toISOString() });
    return { run: last, flow: test.flow, calls: [], events: [] };
  }
  const msg = new Message(input.body, input.vars);
  if (input.at !== undefined) return { run: await runtime.runFromStep(test.flow, input.at, msg), flow: test.flow, calls: [], events: [] };
  const run = input.from === 0 && input.to === undefined ? await runtime.run(test.flow, msg.body, msg.vars) : await runtime.runFrom(test.flow, input.from, msg, input.to);
  return { run, flow: test.flow, calls: [], events: [] };
}

function parseStored(value: Buffer): unknown {
  const text = value.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}


/** Whether the flow under test has a schedule source, read from the definitions as written. */
function isScheduleFlow(definitions: readonly DefinitionText[], flow: string): boolean {
  for (const { text } of definitions) {
    try {
      const doc = parse(text) as { flows?: Record<string, { source?: { type?: unknown } } | null> } | null;
      const source = doc?.flows?.[flow]?.source;
      if (source) return source.type === 'schedule';
    } catch {
      // A file that does not parse is reported when the runtime loads it.
    }
  }
  return false;
}
