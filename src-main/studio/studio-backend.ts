import type { RunState, StudioApi, StudioEventName, StudioEvents, StudioListener } from '../../shared/studio-api.ts';
import { type ComponentRegistry, createLogger, loadRegistry, type Logger } from '../runtime/index.ts';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded-platform.ts';
import { LiveFeed } from './live-feed.ts';
import { RunManager } from './run-manager.ts';
import { startFireAndInspect, type FireAndInspect } from './requests/fire-and-inspect.ts';
import { Workspace } from './workspace.ts';
import { watchWorkspace } from './workspace-watch.ts';
import { createDesignApi } from './design/design-api.ts';
import { flowTestsApi } from './flow-tests/flow-tests-api.ts';
import { startStudioDebugger } from './debugger/studio-debugger.ts';
import { startPlatformViews } from './platform-views/start-platform-views.ts';
import { startResources } from './resources/resources-api.ts';
import { keyFileSecretBackend, type SecretBackend } from './resources/secret-backend.ts';
import { randomBytes } from 'node:crypto';
import { historyApi } from './state/history-api.ts';
import { IntegrationSession } from './state/integration-session.ts';
import { writeConnectorPort } from './connector-port-edit.ts';
import { StudioError } from './studio-error.ts';
import { HistorySettingsStore } from './state/history-settings.ts';
import { openStudioDb } from './state/studio-db.ts';
import { lockDataDir, type DataDirLock } from '../platform/index.ts';

export interface StudioBackendOptions {
  workspaceDir: string;
  dataDir: string;
  /** Sample integrations copied into a new workspace (the repository's examples/). */
  samplesDir?: string;
  shell: 'electron' | 'web';
  /** Tests bring their own platform (or a stand-in); otherwise the embedded one starts. */
  platform?: EmbeddedPlatform;
  /** How the secret store's key is kept (Electron: safeStorage); default a 0600 key file. */
  secretBackend?: SecretBackend;
  registry?: ComponentRegistry;
  env?: Record<string, string | undefined>;
  graceMs?: number;
  watchDebounceMs?: number;
  log?: Logger;
  /**
   * The data folder's lock when the shell took it already (serve does, to refuse before it builds
   * the UI); the backend then owns it and releases it on close. Otherwise the backend takes it.
   */
  dataDirLock?: DataDirLock;
}

/** The studio's backend as the transports see it: the API, its events, and shutdown. */
export interface StudioBackend {
  readonly api: StudioApi;
  /** Changes on every start; the web transport tells windows of an earlier start by it. */
  readonly launchId: string;
  readonly feed: LiveFeed;
  /** Run store, captures and request sending (the Requests and Traces panels); absent in stubs. */
  readonly inspection?: FireAndInspect;
  /** Every integration's run state now (synchronously: a transport reads it in the same turn as it subscribes). */
  runStates(): RunState[];
  on<E extends StudioEventName>(event: E, listener: StudioListener<E>): () => void;
  close(): Promise<void>;
}

/**
 * Takes the data folder (a second studio on it fails here, with DataDirInUseError, before any of
 * its state is opened), starts the platform, opens the workspace (creating it on first start) and
 * its watcher, and wires the run manager and the live feed behind one StudioApi.
 */
export async function startStudioBackend(options: StudioBackendOptions): Promise<StudioBackend> {
  const lock = options.dataDirLock ?? (await lockDataDir(options.dataDir, options.shell));
  let backend: StudioBackend;
  try {
    backend = await startOnLockedDataDir(options, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
  const close = backend.close;
  return Object.assign(backend, { close: () => close().finally(() => lock.release()) });
}

async function startOnLockedDataDir(options: StudioBackendOptions, dataDirLock: DataDirLock): Promise<StudioBackend> {
  const log = options.log ?? createLogger({ level: 'warn' });
  const registry = options.registry ?? (await loadRegistry());
  const workspace = Workspace.open(options.workspaceDir, options.samplesDir);
  const launchId = randomBytes(9).toString('base64url');
  const definitionsAtRoot = workspace.definitionsAtRoot();
  const db = openStudioDb(options.dataDir, (message) => log.warn(message));
  const settings = new HistorySettingsStore(db);
  const session = new IntegrationSession(db);
  const secretBackend = options.secretBackend ?? keyFileSecretBackend(options.dataDir);
  const platform = options.platform ?? (await startEmbeddedPlatform({ dataDir: options.dataDir, secretKeyProtection: secretBackend.protection, dataDirLock }));
  const feed = new LiveFeed();
  const detachPlatformFeed = feed.addSource(platform.feedSource);
  const platformViews = startPlatformViews(platform.views);
  const listeners = new Map<StudioEventName, Set<(payload: never) => void>>();
  const emit = <E extends StudioEventName>(event: E, payload: StudioEvents[E]): void => {
    for (const l of listeners.get(event) ?? []) {
      try {
        (l as StudioListener<E>)(payload);
      } catch (err) {
        log.warn('a studio event listener failed', { event, error: String(err) });
      }
    }
  };

  const inspection = startFireAndInspect({
    workspace,
    dataDir: options.dataDir,
    db,
    settings,
    definitionFiles: (integration, digest) => session.definitionOf(integration, digest)?.files,
    warn: (message) => log.warn(message),
    routesOf: (id) => runs.states().find((s) => s.integration === id)?.routes,
    pushFeed: feed.push,
    emitProgress: (progress) => emit('requestProgress', progress),
    emitCaptures: (captures) => emit('captures', captures),
    secretValueOf: async (name) => platform.management?.secrets.reveal(name),
    secretKeyProtection: secretBackend.protection,
  });

  const resources = startResources({
    workspace,
    dataDir: options.dataDir,
    platform,
    registry: registry,
    feed,
    processEnv: options.env ?? process.env,
    secretBackend,
    bindingsChanged: (id) => void runs.filesChanged(id)?.catch(() => {}),
  });

  const runEnv = async (id: string): Promise<Record<string, string>> => {
    try {
      return (await resources.runEnvironment(id)).env;
    } catch {
      // A binding that cannot resolve fails the re-run's load, naming the variable.
      return {};
    }
  };
  const debuggers = startStudioDebugger({ workspace, dataDir: options.dataDir, registry: registry, runs: inspection.runs, pushFeed: feed.push, runEnv });

  const runs = new RunManager({
    workspace,
    feed,
    platform,
    registry: registry,
    env: options.env,
    runEnvironment: (id) => resources.runEnvironment(id),
    graceMs: options.graceMs,
    log,
    keepLog: (event) => inspection.logs.add(event),
    session,
    onState: (state) => emit('runState', state),
    onRuntime: (id, runtime, version) => {
      const stopInspecting = inspection.watchRuntime(id, runtime, version);
      const stopViewing = platformViews.watchRuntime(id, runtime);
      const stopDebugging = debuggers.watchRuntime(id, runtime);
      return () => {
        stopInspecting();
        stopViewing();
        stopDebugging();
      };
    },
  });

  let watcherReady: () => void = () => {};
  const watching = new Promise<void>((resolve) => (watcherReady = resolve));
  const stopWatching = watchWorkspace(
    workspace.root,
    (changes) => {
      emit('workspace', { integrations: safeList(workspace), changed: changes });
      // The run manager keeps what can change what runs (changesWhatRuns) and compares it.
      const affected = new Map<string, string[]>();
      for (const c of changes) {
        let files = affected.get(c.integration);
        if (!files) affected.set(c.integration, (files = []));
        files.push(c.file);
      }
      for (const [id, files] of affected) {
        void runs.filesChanged(id, files)?.catch(() => {});
        debuggers.filesChanged(id);
      }
    },
    { debounceMs: options.watchDebounceMs, onReady: () => watcherReady() },
  );
  // The watcher scans the workspace before it reports anything; a save made before that scan
  // ends would go unseen. Bounded, so a huge workspace delays the start by at most 5 s.
  await Promise.race([watching, new Promise((r) => setTimeout(r, 5_000).unref())]);

  const api: StudioApi = {
    async workspaceInfo() {
      return { root: workspace.root, dataDir: options.dataDir, platformUrl: platform.url, shell: options.shell, launchId, definitionsAtRoot };
    },
    async listIntegrations() {
      return workspace.list();
    },
    async readFile(integration, file) {
      return workspace.readFile(integration, file);
    },
    async writeFile(integration, file, text) {
      workspace.writeFile(integration, file, text);
    },
    async runStates() {
      return runs.states();
    },
    startIntegration: (id) => runs.start(id),
    stopIntegration: (id) => runs.stop(id),
    restartIntegration: (id) => runs.restart(id),
    usePort: (id, connector, port) => {
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StudioError(`port ${JSON.stringify(port)} is not a port; give 1-65535`);
      return runs.movePort(String(id), String(connector), port, () => writeConnectorPort(workspace, String(id), String(connector), port));
    },
    ...inspection.api,
    ...createDesignApi(workspace, registry),
    ...platformViews.api,
    ...resources.api,
    ...historyApi(settings, inspection, options.dataDir),
    ...flowTestsApi({
      workspace,
      runs: inspection.runs,
      registry: registry,
      captureDetail: (id) => inspection.captures.detail(id),
      runEnv,
    }),
    ...debuggers.api,
  };

  // The session comes back: integrations the user left running start again (a setting turns it off).
  if (settings.get().restoreRunning) {
    const known = new Set(safeList(workspace).map((i) => i.id));
    for (const id of session.wasRunning()) if (known.has(id)) void runs.start(id).catch(() => {});
  }

  let closing: Promise<void> | undefined;
  return {
    api,
    launchId,
    feed,
    inspection,
    runStates: () => runs.states(),
    on(event, listener) {
      if (event === 'feed') {
        // Step snapshots are recorded only while a window listens.
        const stop = feed.subscribe(listener as StudioListener<'feed'>);
        inspection.setListening(feed.listening);
        return () => {
          stop();
          inspection.setListening(feed.listening);
        };
      }
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    close() {
      closing ??= (async () => {
        stopWatching();
        await runs.close();
        await resources.close();
        await inspection.close();
        debuggers.close();
        detachPlatformFeed();
        platformViews.close();
        feed.close();
        await platform.close();
        db.close();
      })();
      return closing;
    },
  };
}

function safeList(workspace: Workspace) {
  try {
    return workspace.list();
  } catch {
    return [];
  }
}
