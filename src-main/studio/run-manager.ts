import { createHash } from 'node:crypto';
import type { LogFeedEvent } from '../../shared/feed-events.ts';
import type { RunProblem, RunState } from '../../shared/studio-api.ts';
import type { DefinitionVersion } from '../../shared/trace-types.ts';
import {
  type ComponentRegistry,
  connectPlatform,
  createLogger,
  envFilesIn,
  errorMessage,
  isFlowTestFile,
  LoadError,
  type InProcessTelemetry,
  type Logger,
  type PlatformServices,
  readDefinitions,
  type Runtime,
  startRuntime,
} from '../runtime/index.ts';
import { snapshotFolder, unchangedSince, type FolderSnapshot } from './folder-snapshot.ts';
import type { LiveFeed } from './live-feed.ts';
import { freePort, isPortInUse, portConflictProblem, type PortOwner } from './port-conflict.ts';
import type { IntegrationSession } from './state/integration-session.ts';
import { maskCapturedTokens } from './requests/notes-signing.ts';
import { routesOf } from './run-routes.ts';
import { logSink, traceSource } from './runtime-feed.ts';
import { MANIFEST_FILE, type Workspace } from './workspace.ts';

/**
 * How a studio run traces while its request thread is saturated (FLOW_TRACE_SATURATED_RATE
 * overrides it): at most 250 runs a second, not `flow-studio run`'s 1000, as the studio records
 * each traced run for its panels — run list, captured exchange, live feed — at several times what
 * `flow-studio run` spends storing its records, and at 1000 a second that took a fifth to a third
 * of a flooded studio's req/s.
 * The bucket holds 1000, so a batch of that many runs at once (a queue panel's publish of 1000
 * copies, a burst of test requests) is traced whole even when it saturates the thread.
 */
export const STUDIO_SATURATED = { rate: 250, burst: 1_000 } as const;

export interface PlatformConnection {
  url: string;
  token: string;
  /** Brings the platform's copy of an integration's resources up to date before it starts. */
  mirrorResources?(integrationDir: string): void;
  /** The platform runs in this process: traces and logs skip HTTP. */
  inProcess?: InProcessTelemetry;
}

export interface RunManagerOptions {
  workspace: Workspace;
  feed: LiveFeed;
  platform: PlatformConnection;
  registry: ComponentRegistry;
  onState: (state: RunState) => void;
  /**
   * Told about every runtime loaded (captures, run recording) with the definition version it
   * serves; what it returns is called when that runtime is retired, after its last in-flight message.
   */
  onRuntime?: (integration: string, runtime: Runtime, version: DefinitionVersion) => () => void;
  /**
   * What outlives a restart (studio.db): which integrations run, their generations, the ports
   * given to `port: 0` connectors, the files of each version. Without it nothing is remembered.
   */
  session?: IntegrationSession;
  /** Base environment of every runtime (declared variables read from it). */
  env?: Record<string, string | undefined>;
  /**
   * What a run adds to the base environment: its bindings (secret values resolved, for the
   * redactor) and its env resources in declared order. Throws, saying why, when it cannot start.
   * Default: no bindings and the files of the integration's env/ folder.
   */
  runEnvironment?: (integration: string) => Promise<{ env: Record<string, string>; secretValues: string[]; envResources: string[] }>;
  /** How long a stopped or replaced runtime may take to finish in-flight messages. */
  graceMs?: number;
  log?: Logger;
  /** Every log record of every runtime, whether or not a window listens (the studio's log history). */
  keepLog?: (event: LogFeedEvent) => void;
}

interface Live {
  runtime: Runtime;
  detachFeed: () => void;
  /** Short digest of the definition texts this runtime was loaded from. */
  digest: string;
  texts: Array<{ file: string; text: string }>;
  /** http connectors that asked for port 0, and whether each was given a remembered port. */
  anyPort: Map<string, boolean>;
  /** The integration's files as they were just before this runtime read them. */
  files: FolderSnapshot;
}

interface Entry {
  desired: 'running' | 'stopped';
  live?: Live;
  /**
   * The delegation API client of this run, shared by every generation a hot reload creates (so
   * discovery and claims carry over); closed when the integration stops.
   */
  services?: PlatformServices;
  /** Replaced runtimes still finishing their in-flight messages. */
  draining: Set<Promise<void>>;
  state: RunState;
}

/**
 * Starts, stops and hot-reloads integrations, one runtime each, wired to the embedded platform
 * through the delegation API exactly as a deployed runtime is (`RUNTIME_SERVICES_MODULE=api`).
 * Operations on one integration run one after another; different integrations do not wait.
 */
export class RunManager {
  private readonly entries = new Map<string, Entry>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly retiring = new Set<Promise<void>>();
  private readonly log: Logger;
  /** Set while the studio shuts down: the integrations it stops then still count as running. */
  private closing = false;

  constructor(private readonly opts: RunManagerOptions) {
    this.log = opts.log ?? createLogger({ sinks: [] });
  }

  states(): RunState[] {
    return [...this.entries.values()].map((e) => e.state);
  }

  start(id: string): Promise<RunState> {
    this.opts.workspace.dirOf(id);
    return this.serial(id, async () => {
      const entry = this.entry(id);
      entry.desired = 'running';
      this.opts.session?.setRunning(id, true);
      if (!entry.live) await this.launch(id, entry);
      return entry.state;
    });
  }

  stop(id: string): Promise<RunState> {
    return this.serial(id, () => this.halt(id, this.entry(id), undefined));
  }

  /** Stops what runs of `id`, inside its serial queue; `reason` says why when the user did not. */
  private async halt(id: string, entry: Entry, reason: string | undefined): Promise<RunState> {
    entry.desired = 'stopped';
    if (!this.closing) this.opts.session?.setRunning(id, false);
    const live = entry.live;
    entry.live = undefined;
    if (live) await this.retire(live, entry);
    await this.closeServices(entry);
    this.set(entry, { status: 'stopped', routes: [], problems: [], reason, serving: undefined });
    return entry.state;
  }

  restart(id: string): Promise<RunState> {
    this.opts.workspace.dirOf(id);
    return this.serial(id, async () => {
      const entry = this.entry(id);
      entry.desired = 'running';
      this.opts.session?.setRunning(id, true);
      const live = entry.live;
      entry.live = undefined;
      if (live) await this.retire(live, entry);
      await this.closeServices(entry);
      await this.launch(id, entry);
      return entry.state;
    });
  }

  /**
   * Gives a `port: 0` connector `port` from now on (the studio's memory of it), or writes `port`
   * into the connector's setting when it names one (`write`), then starts the integration again.
   */
  movePort(id: string, connector: string, port: number, write: () => void): Promise<RunState> {
    const remembered = this.opts.session?.port(id, connector) !== undefined;
    if (remembered) this.opts.session?.rememberPort(id, connector, port);
    else write();
    return this.restart(id);
  }

  /** Who of this studio is bound to `port`: the running integrations' http connectors. */
  readonly portOwner: PortOwner = (port) => {
    for (const [integration, e] of this.entries) {
      for (const c of e.live?.runtime.describe().connectors ?? []) {
        const url = c.details?.url;
        if (typeof url === 'string' && portOf(url) === port) return { integration, connector: c.name };
      }
    }
    return undefined;
  };
  /**
   * Files of an integration changed on disk: a running one reloads without dropping in-flight
   * messages; one that failed to start tries again; a stopped one stays stopped. When the
   * watcher names the `files` and each holds what the running version read (a late event for a
   * file written before it started, a save without edits), nothing reloads.
   */
  filesChanged(id: string, files?: readonly string[]): Promise<RunState> | undefined {
    files = files?.filter(changesWhatRuns);
    if (files?.length === 0) return undefined;
    const entry = this.entries.get(id);
    if (!entry || entry.desired !== 'running') return undefined;
    return this.serial(id, async () => {
      if (entry.desired !== 'running') return entry.state;
      // Deleted, or moved away (a rename, a checkout): it would serve on with no card to stop it.
      if (!this.opts.workspace.has(id)) {
        const reason = `its folder ${id} is no longer in the workspace`;
        // Its card leaves with the folder, so the reason goes where it outlives the card: the
        // studio's logs, kept in its history.
        logSink(id, this.opts.feed, this.opts.keepLog)({ time: new Date().toISOString(), level: 'warn', msg: `stopped: ${reason}` });
        return this.halt(id, entry, reason);
      }
      const live = entry.live;
      const healthy = entry.state.status === 'running' && entry.state.reason === undefined;
      if (live && healthy && files?.length && unchangedSince(live.files, this.opts.workspace.dirOf(id), files)) return entry.state;
      if (!entry.live) await this.launch(id, entry);
      else await this.reload(id, entry, entry.live);
      return entry.state;
    });
  }

  /** Stops every runtime, waiting for in-flight messages up to the grace period. */
  async close(): Promise<void> {
    this.closing = true;
    const ids = [...this.entries.keys()];
    await Promise.all(ids.map((id) => this.stop(id).catch(() => undefined)));
    await Promise.all([...this.retiring]);
  }

  private async launch(id: string, entry: Entry): Promise<void> {
    this.set(entry, { status: 'starting', routes: [], problems: [], reason: undefined, serving: undefined, portClash: undefined, generation: entry.state.generation + 1 });
    let live: Live;
    try {
      live = await this.load(id, entry, entry.state.generation);
    } catch (err) {
      await this.closeServices(entry);
      this.set(entry, failure(err));
      return;
    }
    try {
      await live.runtime.start();
    } catch (err) {
      live.detachFeed();
      await this.closeServices(entry);
      this.set(entry, await this.startFailure(err, live));
      return;
    }
    entry.live = live;
    this.served(id, live, entry.state.generation);
    this.set(entry, {
      status: 'running',
      routes: routesOf(live.runtime.describe()),
      problems: [],
      reason: undefined,
      serving: { generation: entry.state.generation, loadedAt: Date.now(), digest: live.digest },
    });
  }

  /** A version started serving: its files, and the ports its `port: 0` connectors were given, are remembered. */
  private served(id: string, live: Live, generation: number): void {
    const session = this.opts.session;
    if (!session) return;
    try {
      session.recordDefinition(id, { generation, digest: live.digest }, live.texts);
      for (const c of live.runtime.describe().connectors) {
        const url = c.details?.url;
        const port = typeof url === 'string' ? portOf(url) : undefined;
        if (live.anyPort.has(c.name) && port !== undefined) session.rememberPort(id, c.name, port);
      }
    } catch (err) {
      this.log.warn('the studio could not remember what an integration serves', { integration: id, error: errorMessage(err) });
    }
  }

  /** Why a loaded runtime did not start; a port in use names who holds it and offers a free one. */
  private async startFailure(err: unknown, live: Live): Promise<Partial<RunState>> {
    if (!isPortInUse(err)) return failure(err);
    const suggestion = await freePort().catch(() => 0);
    const conflict = portConflictProblem(err, live.runtime, { ownerOf: this.portOwner, suggestion, remembered: (c) => live.anyPort.get(c) === true });
    if (!conflict) return failure(err);
    return { status: 'failed', routes: [], problems: [conflict.problem], reason: conflict.reason, portClash: conflict.clash };
  }

  private async reload(id: string, entry: Entry, old: Live): Promise<void> {
    let next: Live;
    const generation = entry.state.generation + 1;
    try {
      next = await this.load(id, entry, generation);
    } catch (err) {
      // Keep serving the version that works; show what is wrong with the saved one.
      const f = failure(err);
      this.set(entry, { reason: `the saved change was not loaded, still running the previous version: ${f.reason}`, problems: f.problems });
      return;
    }
    // Quiesce frees the old listeners while its in-flight messages keep running to completion.
    await old.runtime.quiesce();
    entry.live = undefined;
    void this.retire(old, entry);
    try {
      await next.runtime.start();
    } catch (err) {
      next.detachFeed();
      this.set(entry, { ...(await this.startFailure(err, next)), serving: undefined });
      return;
    }
    entry.live = next;
    this.served(id, next, generation);
    this.set(entry, {
      status: 'running',
      routes: routesOf(next.runtime.describe()),
      problems: [],
      reason: undefined,
      portClash: undefined,
      generation,
      serving: { generation, loadedAt: Date.now(), digest: next.digest },
    });
  }

  private async load(id: string, entry: Entry, generation: number): Promise<Live> {
    const { workspace, platform, feed, registry } = this.opts;
    const dir = workspace.dirOf(id);
    // The resource folders are read whole below (mirrored to the platform, env files folded in):
    // refuse them when a symbolic link takes them out of the workspace.
    for (const kind of ['env', 'template']) workspace.pathIn(id, kind);
    // Before anything is read: a file changed from here on is newer than the snapshot and reloads.
    const files = snapshotFolder(dir, (file) => !changesWhatRuns(file));
    platform.mirrorResources?.(dir);
    const texts = readDefinitions(workspace.definitionPaths(id)).map((t) => ({ ...t, file: t.file.slice(dir.length + 1) }));
    const run = (await this.opts.runEnvironment?.(id)) ?? { env: {}, secretValues: [], envResources: envFilesIn(dir) };
    // The studio is for debugging: every run is traced, whatever a deployment samples, into the
    // run store the studio reads; the embedded platform gets no second copy.
    const connection = { url: platform.url, token: platform.token, traceSampling: { ratio: 1, keepFailed: true }, inProcess: platform.inProcess, exportTraces: false };
    // The services' identity: queue sources consume as the group named after the integration.
    const identity = { deploymentId: id, instanceId: 'studio' };
    // One services client per run, kept across hot reloads and closed after the last runtime drains.
    if (!entry.services) {
      const services = await connectPlatform(connection, identity, createLogger({ sinks: [logSink(id, feed, this.opts.keepLog)], fields: { integration: id } }));
      entry.services = services;
    }
    // The studio binds loopback unless a host is named, and a `port: 0` connector keeps the port
    // it was given before, so the URLs a person pointed a webhook sender at stay put.
    const anyPort = new Map<string, boolean>();
    const session = this.opts.session;
    const listen = (connector: string, wanted: { host: string | undefined; port: number }): { host: string; port: number } => {
      const host = wanted.host ?? '127.0.0.1';
      if (wanted.port !== 0) return { host, port: wanted.port };
      const before = session?.port(id, connector);
      anyPort.set(connector, before !== undefined);
      return { host, port: before ?? 0 };
    };
    const { runtime } = await startRuntime({
      definitions: texts,
      sandbox: { listen },
      registry,
      variables: { ...(this.opts.env ?? process.env), ...run.env },
      saturated: STUDIO_SATURATED,
      envResources: run.envResources,
      platform: connection,
      services: entry.services,
      identity,
      integration: id,
      secretValues: run.secretValues,
      logFields: { integration: id },
      // Records go to the Logs panel and the platform, a captured webhook token masked in both.
      logSinks: [logSink(id, feed, this.opts.keepLog)],
      wrapLogSink: maskCapturedTokens,
      // Every failed run gets its own Logs line from the studio, linked to the run (a failure is
      // always traced here, even one shed under load): the runtime's warn line would say it twice.
      logFailedRuns: false,
      start: false,
    });
    const detachTraces = feed.addSource(traceSource(id, runtime.traces));
    // Runs this runtime answered but did not trace while saturated: the status bar says how many.
    const admission = runtime.traces.admission;
    const stopCounting = feed.addDropCounter(() => admission.shed, 'runsNotTraced');
    const digest = digestOf(texts);
    const detachWatch = this.opts.onRuntime?.(id, runtime, { generation, digest });
    const detachFeed = (): void => {
      detachTraces();
      stopCounting();
      detachWatch?.();
    };
    return { runtime, detachFeed, digest, texts, anyPort, files };
  }

  /** Drains and stops a runtime; its traces keep flowing until its last message is done. */
  private retire(live: Live, entry: Entry): Promise<void> {
    const done = (async () => {
      try {
        await live.runtime.stop(this.opts.graceMs ?? 10_000);
      } catch (err) {
        this.log.warn('runtime did not stop cleanly', { error: errorMessage(err) });
      }
      live.detachFeed();
    })();
    this.retiring.add(done);
    entry.draining.add(done);
    void done.finally(() => {
      this.retiring.delete(done);
      entry.draining.delete(done);
    });
    return done;
  }

  /** After the last runtime of a run is retired (their drains use it), the client closes. */
  private async closeServices(entry: Entry): Promise<void> {
    const services = entry.services;
    entry.services = undefined;
    if (!services) return;
    await Promise.all([...entry.draining]);
    await services.close().catch(() => {});
  }

  private entry(id: string): Entry {
    let e = this.entries.get(id);
    if (!e) {
      e = { desired: 'stopped', draining: new Set(), state: stoppedState(id, this.opts.session?.lastGeneration(id) ?? 0) };
      this.entries.set(id, e);
    }
    return e;
  }

  private set(entry: Entry, patch: Partial<RunState>): void {
    if (patch.generation !== undefined && patch.generation !== entry.state.generation) this.opts.session?.setGeneration(entry.state.integration, patch.generation);
    entry.state = { ...entry.state, ...patch, since: Date.now() };
    if (entry.state.reason === undefined) delete entry.state.reason;
    if (entry.state.serving === undefined) delete entry.state.serving;
    if (entry.state.portClash === undefined || entry.state.status !== 'failed') delete entry.state.portClash;
    this.opts.onState(entry.state);
  }

  private serial<T>(id: string, op: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(id) ?? Promise.resolve();
    const next = prev.then(op, op);
    const tail = next.catch(() => undefined);
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return next;
  }
}

/**
 * Whether a file of an integration (relative, with `/`) can change what runs: the manifest only
 * names the integration, and flow tests and their fixtures are not part of what runs.
 */
export function changesWhatRuns(file: string): boolean {
  return file !== MANIFEST_FILE && !isFlowTestFile(file) && file !== 'fixtures' && !file.startsWith('fixtures/');
}

/** A short, stable name for the definition texts a runtime was loaded from. */
function digestOf(texts: { file: string; text: string }[]): string {
  const hash = createHash('sha256');
  for (const t of texts) hash.update(t.file).update('\0').update(t.text).update('\0');
  return hash.digest('hex').slice(0, 8);
}

function stoppedState(id: string, generation: number): RunState {
  return { integration: id, status: 'stopped', routes: [], problems: [], generation, since: Date.now() };
}

function failure(err: unknown): Pick<RunState, 'status' | 'routes' | 'reason' | 'problems'> {
  if (err instanceof LoadError) {
    const problems: RunProblem[] = err.problems.map((p) => ({ file: p.location.file, line: p.location.line, col: p.location.col, path: p.path, message: p.message }));
    const n = problems.length;
    return { status: 'failed', routes: [], problems, reason: `${n} problem${n === 1 ? '' : 's'} in the definition` };
  }
  return { status: 'failed', routes: [], problems: [], reason: errorMessage(err) };
}

function portOf(url: string): number | undefined {
  try {
    const port = Number(new URL(url).port);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}
