import { mintToken } from './minted-token.ts';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock, type ClockTimer } from '../../shared/clock.ts';
import { urlPath } from '../../shared/route-pattern.ts';
import { agentMemoryRoutes } from './delegation/agent-memory.ts';
import { discoveryRoutes } from './delegation/discovery.ts';
import { kvRoutes } from './delegation/kv.ts';
import { leaderRoutes } from './delegation/leader.ts';
import { leaseRoutes } from './delegation/leases.ts';
import type { PlatformContext } from './delegation/platform-context.ts';
import { QueueDispatch } from './delegation/queue-dispatch.ts';
import { RequestReply } from './delegation/queue-request-reply.ts';
import { queueRoutes } from './delegation/queues.ts';
import { resourceRoutes } from './delegation/resources.ts';
import { ingestTelemetry } from './delegation/telemetry-ingest.ts';
import { telemetryRoutes } from './delegation/telemetry.ts';
import { TopicRoutes } from './delegation/topics.ts';
import { PlatformEventFeed } from './events.ts';
import { loadFeaturesFile, resolveFeatures, type FeatureOverrides, type Features } from './features.ts';
import { lockDataDir, type DataDirLock } from './data-dir-lock.ts';
import { ApiError } from './http/api-error.ts';
import { bearerAuth } from './http/bearer-auth.ts';
import { guardDeclaredStatuses } from './http/declared-statuses.ts';
import { sendError, setBodyIdleTimeout } from './http/http-io.ts';
import { Router } from './http/router.ts';
import { parseStrictQuery } from './http/strict-query.ts';
import { createPlatformInspection, type PlatformInspection } from './inspect/platform-inspection.ts';
import { Management } from './management/management.ts';
import { managementRoutes } from './management/management-routes.ts';
import { KubernetesSecretObject, type KubernetesApiOptions } from './management/kubernetes-secret-object.ts';
import { keyFileProtection, type SecretKeyProtection } from './management/secret-key-protection.ts';
import { kubernetesSecretValues, SealedFileSecretValues } from './management/secret-values.ts';
import type { SecretValues } from './store/cluster-secret-store.ts';
import { seedResourcesFromDir } from './management/seed-resources.ts';
import type { PlatformStore, StoreSettings } from './store/platform-store.ts';
import type { ResourceStore } from './store/resource-store.ts';
import { SecretCipher } from './store/secret-cipher.ts';
import { openSqliteStore } from './store/sqlite/sqlite-store.ts';
import { diskFullError } from './store/disk-full.ts';
import type { TelemetryKind, TelemetryRecord, TelemetryStore } from './store/telemetry-store.ts';

export interface PlatformServerOptions {
  /** Interface to bind; 127.0.0.1 unless told otherwise. */
  host?: string;
  /** 0 (the default) picks a free port; read it back from `url`. */
  port?: number;
  /** Where the database and the secret key file live; created when missing. */
  dataDir: string;
  /**
   * The data folder's lock when the caller took it already (the studio, whose data folder this
   * is too; the CLI, before it writes the token file into it); the caller releases it. Otherwise,
   * on SQLite, the server takes it before it opens anything and releases it once closed: the
   * SQLite store assumes it is the only one on its files (see data-dir-lock.ts). PostgreSQL
   * replicas share their store and may share a folder (the key file is created once, for all).
   */
  dataDirLock?: DataDirLock;
  /**
   * Where the delegation API's state lives: absent (the default) for SQLite in `dataDir`, or a
   * `postgres://…` URL for PostgreSQL, which any number of platform replicas can share.
   */
  store?: string;
  /**
   * The 32-byte key sealing `*_secrets` values (and, on PostgreSQL, cluster secret values).
   * Absent: a 0600 key file in `dataDir`. Replicas sharing a PostgreSQL store must share it too
   * (FLOW_PLATFORM_SECRET_KEY in the CLI).
   */
  secretKey?: Buffer;
  /** Bearer token every route but discovery requires. Absent: a fresh one is minted. `false`: no authentication. */
  token?: string | false;
  /** A features file path (JSON or YAML), overrides of the defaults, or resolved features. */
  features?: string | FeatureOverrides;
  /** Loads `<dir>/env/**` and `<dir>/template/**` as resources at start. */
  seedResourcesDir?: string;
  /** Told about failures answered with 500 (never with request bodies or secret values). Default: stderr. */
  onInternalError?: (err: Error, where: string) => void;
  /** How the key of the cluster secret store is kept; default a 0600 key file in `dataDir`. */
  secretKeyProtection?: SecretKeyProtection;
  /** Deadlines and the connection cap; the defaults suit production (see ConnectionLimits). */
  limits?: Partial<ConnectionLimits>;
  /**
   * Cluster secrets as keys of the Kubernetes Secret `flow-secrets` (spec 2 §2.11) instead of the
   * local sealed file: where the Kubernetes API is (`inClusterKubernetes()` inside a pod).
   */
  kubernetesSecrets?: KubernetesApiOptions;
  /**
   * What the platform reads the time from and sets its timers on: lease TTLs, ack deadlines,
   * nack delays, long-poll windows, subscription expiry, retention. Default the system clock;
   * tests and flow tests pass a ManualClock (shared/clock.ts) to move time without waiting.
   * On PostgreSQL, TTLs and deadlines are decided by the database's clock whatever this is.
   */
  clock?: Clock;
  /**
   * Answers with a status a route's declaration (shared/platform-api/) does not list become 500s
   * reported to onInternalError, so a contract test catches them. Default: on under Vitest.
   */
  checkDeclaredStatuses?: boolean;
}

/**
 * How long a client may take to send a request, and how many connections are served at once.
 * Only receiving the request is bounded: a long poll, once its request is in, waits as long as
 * its waitSeconds/timeoutSeconds say (spec 1), whatever these are.
 */
export interface ConnectionLimits {
  /** All request headers must arrive within this (answered 408 by Node otherwise). Default 10 s. */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this, so a body trickled byte by byte is cut. Default 60 s. */
  requestTimeoutMs: number;
  /** A body that pauses longer than this between bytes is answered 408 body_timeout. Default 10 s. */
  bodyIdleTimeoutMs: number;
  /** Connections open at once; more are closed as they arrive. Default 1000. */
  maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, bodyIdleTimeoutMs: 10_000, maxConnections: 1000 };

export interface PlatformServer {
  /** Base URL of the delegation API, e.g. `http://127.0.0.1:43817` (routes are under /v1). */
  readonly url: string;
  /** The bearer token clients must send, or undefined when authentication is off. */
  readonly token: string | undefined;
  readonly dataDir: string;
  readonly features: Features;
  /** Live feed of KV writes, lease changes, queue and topic traffic, traces and logs. */
  readonly events: PlatformEventFeed;
  /** Which store the delegation API runs on. */
  readonly storeKind: 'sqlite' | 'postgres';
  /** Stored trace and log records, newest first. */
  readonly traces: TelemetryReader;
  readonly logs: TelemetryReader;
  /**
   * Stores a batch of trace or log records from a runtime in this process (`jsonText`: a JSON
   * array of `count` records, masked): what POST /v1/traces and /v1/logs store, minus the socket
   * and the parse.
   */
  ingestTelemetry(kind: TelemetryKind, count: number, jsonText: string): Promise<void>;
  /** Resources served by GET /v1/resources/content; the management side writes here. */
  readonly resources: ResourceStore;
  /** Integrations, resources, tags, cluster secrets and deployments, for in-process callers (the studio). */
  readonly management: Management;
  /** Every route served, whether its capability is on (switched-off routes answer 501), and the largest body it reads. */
  readonly routes: ReadonlyArray<{ method: string; path: string; capability: string; enabled: boolean; maxBodyBytes: number }>;
  /**
   * In-process views of what is stored, for the studio's panels (src-main/platform/inspect/), on
   * either store.
   */
  readonly inspect: PlatformInspection;
  /** Client connections open now; while it closes, those with an answer still in progress. */
  readonly openConnections: number;
  /** Stops listening, answers waiting long polls with 503, and closes the database. */
  close(): Promise<void>;
}

export interface TelemetryReader {
  list(options?: { limit?: number; beforeId?: number }): Promise<TelemetryRecord[]>;
  /** Records and bytes of record JSON kept now (bounded by retainRecords and retainBytes). */
  readonly kept: { records: number; bytes: number };
}

const IMPLEMENTATION = {
  name: 'flow-studio-platform',
  version: (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version,
};

/**
 * Starts the platform server: the Platform Delegation API v1 over node:http, backed by SQLite
 * in `dataDir`. Resolves once it listens.
 *
 * @example
 * const platform = await startPlatformServer({ dataDir: '/tmp/flow-data' });
 * process.env.FLOW_PLATFORM_API_URL = platform.url;
 * process.env.FLOW_PLATFORM_API_TOKEN = platform.token;
 * const stop = platform.events.subscribe((e) => console.log(e.type));
 */
export async function startPlatformServer(options: PlatformServerOptions): Promise<PlatformServer> {
  const features = typeof options.features === 'string' ? loadFeaturesFile(options.features) : resolveFeatures(options.features);
  if (options.dataDirLock && resolve(options.dataDirLock.dataDir) !== resolve(options.dataDir)) {
    throw new Error(`the data folder lock given is on ${options.dataDirLock.dataDir}, not on the platform's data folder ${options.dataDir}`);
  }
  // Before anything in the folder is opened: a second SQLite platform on it is refused here (DataDirInUseError).
  const ownLock = options.store || options.dataDirLock ? undefined : await lockDataDir(options.dataDir, 'server', { instead: SERVER_INSTEAD });
  let server: PlatformServer;
  try {
    server = await startOnDataDir(options, features);
  } catch (err) {
    ownLock?.release();
    // On SQLite a full disk is said with the data folder and what to do.
    throw options.store ? err : diskFullError(options.dataDir, err);
  }
  if (!ownLock) return server;
  ownLock.announce(server.url);
  const close = server.close;
  return Object.assign(server, { close: () => close().finally(() => ownLock.release()) });
}

const SERVER_INSTEAD = 'or give this platform server a data folder of its own';

async function startOnDataDir(options: PlatformServerOptions, features: Features): Promise<PlatformServer> {
  const token = options.token === false ? undefined : (options.token ?? mintToken());
  const report = options.onInternalError ?? ((err, where) => console.error(`platform server: ${where}: ${err.stack ?? err.message}`));
  // A full disk is said with the folder it is under and what to do, in the log and in the 500's message alike.
  const onInternalError = (err: Error, where: string): void => report(diskFullError(options.dataDir, err) as Error, where);

  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const cipher = options.secretKey ? SecretCipher.fromKey(options.secretKey) : SecretCipher.openOrCreate(options.dataDir);
  const settings = storeSettings(features);
  const store: PlatformStore = options.store
    ? await (await import('./store/postgres/postgres-store.ts')).openPostgresStore(options.store, settings, cipher, (err) => onInternalError(err, 'PostgreSQL store'))
    : openSqliteStore(options.dataDir, settings, cipher, options.clock);
  try {
    return await serve(store, options, features, token, onInternalError);
  } catch (err) {
    await store.close();
    throw err;
  }
}

async function serve(
  store: PlatformStore,
  options: PlatformServerOptions,
  features: Features,
  token: string | undefined,
  onInternalError: (err: Error, where: string) => void,
): Promise<PlatformServer> {
  const events = new PlatformEventFeed();
  const clock = options.clock ?? systemClock;
  const p: PlatformContext = {
    features,
    events,
    kv: store.kv,
    resources: store.resources,
    leases: store.leases,
    queues: store.queues,
    topics: store.topics,
    agentMemory: store.agentMemory,
    traces: store.traces,
    logs: store.logs,
    implementation: IMPLEMENTATION,
    clock,
  };
  if (options.seedResourcesDir) await seedResourcesFromDir(p.resources, options.seedResourcesDir);
  const kubernetesSecrets = options.kubernetesSecrets ? new KubernetesSecretObject(options.kubernetesSecrets) : undefined;
  const secretValues: SecretValues = kubernetesSecrets
    ? kubernetesSecretValues(kubernetesSecrets)
    : (store.management.secretValues ??
      new SealedFileSecretValues(options.dataDir, options.secretKeyProtection ?? keyFileProtection(), async () => (await store.management.secretNames.list()).map((s) => s.name)));
  const management = new Management(store.management, secretValues);
  try {
    await management.secrets.ready();
  } catch (err) {
    secretValues.close?.();
    throw err;
  }

  const waitError = (err: Error): void => onInternalError(err, 'long poll');
  const dispatch = new QueueDispatch(p.queues, features, events, waitError, clock);
  const requestReply = new RequestReply(p, dispatch);
  const topics = new TopicRoutes(p, waitError);
  const stopWakeups = store.wakeups?.subscribe((w) => {
    if (w.kind === 'queue') dispatch.wakeGroup(w.subject, w.group);
    else if (w.kind === 'topic') topics.wakeStream(w.plane, w.subject);
    else if (w.kind === 'unsubscribed') topics.waiting.endAll(w.subscriptionId);
    else if (w.kind === 'all') {
      for (const key of dispatch.waiting.keys()) dispatch.waiting.wake(key);
      for (const key of topics.waiting.keys()) topics.waiting.wake(key);
    }
    else requestReply.replyArrived(w.replyTo);
  });
  const router = new Router().add(
    ...discoveryRoutes(p),
    ...kvRoutes(p),
    ...resourceRoutes(p),
    ...leaseRoutes(p),
    ...leaderRoutes(p),
    ...queueRoutes(p, dispatch),
    ...requestReply.routes(),
    ...topics.routes(),
    ...agentMemoryRoutes(p),
    ...telemetryRoutes(p),
    ...managementRoutes(management, features),
  );
  const authorize = token === undefined ? undefined : bearerAuth(token);
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  const checkStatuses = options.checkDeclaredStatuses ?? process.env.VITEST !== undefined;
  const handler = requestHandler(router, authorize, onInternalError, limits.bodyIdleTimeoutMs, checkStatuses, (err) => (store.kind === 'sqlite' ? diskFullError(options.dataDir, err) : err));

  // Node bounds receiving a request only (a long poll whose request is in is not affected), and
  // checks its deadlines every connectionsCheckingInterval, so that interval is kept well below them.
  const server = createServer(
    {
      keepAliveTimeout: 65_000,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, limits.headersTimeoutMs / 4, limits.requestTimeoutMs / 4)),
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  // Counted per connection, not per request: what a stop cut short, said when a second signal forces it.
  let openConnections = 0;
  server.on('connection', (socket) => {
    openConnections++;
    socket.once('close', () => openConnections--);
  });
  try {
    await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (err) {
    // The store is closed by the caller; what serve() opened besides it is closed here.
    stopWakeups?.();
    secretValues.close?.();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  // Expiry of idle topic subscriptions and telemetry retention: periodic, never per request.
  const sweepMs = Math.min(30_000, (features.topics.subscriptionIdleSeconds * 1000) / 4);
  // On the platform's clock, so a test that moves the clock past an idle limit sees the sweep.
  let sweeper: ClockTimer | undefined;
  let sweepsRunning = true;
  /** The sweep under way, which close() lets finish before it closes the store under it. */
  let sweeping: Promise<void> | undefined;
  const sweepLater = (): void => {
    sweeper = clock.setTimeout(sweep, Math.max(sweepMs, 250), { unref: true });
  };
  const sweep = (): void => {
    sweeping = (async () => {
      await topics.sweep();
      await p.traces.prune();
      await p.logs.prune();
    })()
      .catch((err: unknown) => onInternalError(err as Error, 'periodic sweep'))
      .finally(() => {
        sweeping = undefined;
        if (sweepsRunning) sweepLater();
      });
  };
  sweepLater();

  let closing: Promise<void> | undefined;
  let inspection: PlatformInspection | undefined;
  return {
    url: `http://${host}:${address.port}`,
    token,
    dataDir: options.dataDir,
    storeKind: store.kind,
    features,
    events,
    traces: telemetryReader(p.traces),
    logs: telemetryReader(p.logs),
    ingestTelemetry: (kind, count, text) =>
      ingestTelemetry(p, kind, { count, text }).catch((err: unknown) => {
        throw store.kind === 'sqlite' ? diskFullError(options.dataDir, err) : err;
      }),
    resources: p.resources,
    management,
    routes: router.routes.map(({ method, path, capability, enabled, maxBodyBytes }) => ({ method, path, capability, enabled, maxBodyBytes })),
    get openConnections(): number {
      return openConnections;
    },
    get inspect(): PlatformInspection {
      return (inspection ??= createPlatformInspection({ store, context: p, dispatch, topicRoutes: topics }));
    },
    close: () =>
      (closing ??= (async () => {
        sweepsRunning = false;
        clock.clearTimeout(sweeper);
        stopWakeups?.();
        dispatch.waiting.close();
        topics.waiting.close();
        requestReply.close();
        await stopListening(server);
        // Bounded: a sweep stuck on an unreachable database must not hold the shutdown.
        if (sweeping) await Promise.race([sweeping, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
        await store.close();
        secretValues.close?.();
      })()),
  };
}

/** What the stores keep and for how long, from the effective features. */
export function storeSettings(features: Features): StoreSettings {
  const retention = (f: { retainRecords: number; retainBytes: number; retainSeconds: number }) => ({ records: f.retainRecords, bytes: f.retainBytes, seconds: f.retainSeconds });
  return { retention: { traces: retention(features.traces), logs: retention(features.logs) }, subscriptionIdleMs: features.topics.subscriptionIdleSeconds * 1000 };
}

function telemetryReader(store: TelemetryStore): TelemetryReader {
  return {
    list: (options) => store.list(options),
    get kept() {
      return store.kept;
    },
  };
}

function requestHandler(
  router: Router,
  authorize: ((req: IncomingMessage) => void) | undefined,
  onInternalError: (err: Error, where: string) => void,
  bodyIdleTimeoutMs: number,
  checkStatuses: boolean,
  described: (err: unknown) => unknown,
): (req: IncomingMessage, res: ServerResponse) => void {
  const noQuery = new URLSearchParams();
  const fail = (req: IncomingMessage, res: ServerResponse, thrown: unknown): void => {
    if (thrown instanceof ApiError) return sendError(res, thrown);
    const err = described(thrown);
    const where = `${req.method} ${urlPath(req.url ?? '')}`;
    onInternalError(err as Error, where);
    sendError(res, new ApiError(500, 'internal_error', `the platform server failed on ${where}: ${(err as Error).message}`));
  };
  return (req, res) => {
    setBodyIdleTimeout(req, bodyIdleTimeoutMs);
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      const match = router.match(req.method ?? 'GET', path);
      if (authorize && !(match.kind === 'route' && match.route.public)) authorize(req);
      if (match.kind === 'none') {
        // Spec 1 §1 rule 1: 404 always means the addressed thing is absent, so a route this
        // server does not have is 501, which the runtime reads as "capability off".
        throw new ApiError(501, 'route_not_implemented', `no route ${req.method} ${path.slice(0, 200)} in the delegation API v1; the routes are listed at /v1/openapi.json`);
      }
      if (match.kind === 'wrong-method') {
        throw new ApiError(405, 'method_not_allowed', `${path.slice(0, 200)} does not answer ${req.method}; it answers ${match.allow.join(', ')}`, {
          allow: match.allow.join(', '),
        });
      }
      const { route, params } = match;
      if (checkStatuses) guardDeclaredStatuses(res, route, (err) => onInternalError(err, `${req.method} ${path}`));
      if (!route.enabled) {
        throw new ApiError(501, 'not_implemented', `${route.capability} is switched off on this platform server; the runtime degrades it per its unsupported policy`);
      }
      const done = route.handle({ req, res, params, query: q === -1 ? noQuery : parseStrictQuery(url.slice(q + 1)) });
      if (done) done.catch((err: unknown) => fail(req, res, err));
    } catch (err) {
      fail(req, res, err);
    }
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Stops accepting connections and closes each kept-alive connection as soon as it is idle (the
 * answers in progress finish first); whatever is still open after 2 s is cut.
 */
function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const idleSweep = setInterval(() => server.closeIdleConnections(), 20);
    const force = setTimeout(() => server.closeAllConnections(), 2000);
    server.close(() => {
      clearInterval(idleSweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
