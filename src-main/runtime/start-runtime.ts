import type { Clock } from '../../shared/clock.ts';
import type { DefinitionText } from './core/load/integration-files.ts';
import { createLogger, SecretRedactor, type Logger, type LogLevel, type LogSink } from './core/logger.ts';
import type { ComponentRegistry } from './core/registry-types.ts';
import type { RuntimeSandbox } from './core/sandbox.ts';
import { Runtime } from './core/runtime.ts';
import { TraceAdmission, saturatedBudgetFromEnv, saturatedRateFromEnv } from './core/trace-admission.ts';
import { TraceHub } from './core/trace.ts';
import { loadRegistry, registryNaming } from './components.ts';
import { LoadError } from './core/errors.ts';
import type { LoadOptions } from './core/load/definition-loader.ts';
import { apiConfigFromEnv, DEFAULT_DISCOVERY_BUDGET_MS, type ApiConfig, type ClientTls, type Identity } from './services/api-config.ts';
import { foldEnvResources } from './services/env-resources.ts';
import { deferredLogSink } from './services/log-forwarding.ts';
import { noPlatformServices, type PlatformServices } from './services/platform-services.ts';
import type { InProcessTelemetry } from './services/trace-exporter.ts';
import { samplingFromEnv, type TraceSampling } from './services/trace-sampling.ts';

/** Where the platform is (spec 1 §1), as typed values: what `FLOW_PLATFORM_API_*` say for a deployed runtime. */
export interface PlatformConnection {
  url: string;
  /** A fixed bearer token. */
  token?: string;
  /** A token file re-read when it changes (rotated credentials). */
  tokenFile?: string;
  /** Sent on every call (API keys): masked like the token. */
  headers?: Record<string, string>;
  tls?: ClientTls;
  discoveryBudgetMs?: number;
  /** A deployed runtime reads the frozen resources of its version tag. */
  snapshotId?: string;
  /** Which runs are traced to the platform (FLOW_TRACE_SAMPLE_RATIO, FLOW_TRACE_KEEP_FAILED for a deployed runtime); default: all. */
  traceSampling?: TraceSampling;
  /** The platform runs in this process (embedded): traces and logs are handed to it rather than POSTed. */
  inProcess?: InProcessTelemetry;
  /**
   * False: trace records are not sent to the platform (logs still are). The studio keeps its own
   * runs' traces in its run store; a copy in the embedded platform was read by nothing.
   */
  exportTraces?: boolean;
}

export interface StartRuntimeOptions {
  /** The definition files of one integration. */
  definitions: readonly DefinitionText[];
  /** Default: the components the definitions name, loaded on first use. */
  registry?: ComponentRegistry;
  /**
   * The variables the definitions' `env:` reads, strongest first: the process environment or a
   * deployment's bindings and managed variables. Env resources fold in beneath them and declared
   * defaults beneath both (spec 2 §4.4).
   */
  variables: Record<string, string | undefined>;
  /** Env resources to fold in, in declared order (read from the platform). */
  envResources?: readonly string[];
  /** The platform to connect to; absent, the runtime runs without one. Ignored when `services` is given. */
  platform?: PlatformConnection;
  /** Services the caller already has (a hot reload keeps them); the caller closes them. */
  services?: PlatformServices;
  identity: Identity;
  /** The integration it runs, named on exported spans (`flow.integration`). */
  integration?: string;
  /** Values masked in logs, traces and errors, besides `secret: true` variables and the platform credentials. */
  secretValues?: ReadonlyArray<string | undefined>;
  logLevel?: LogLevel;
  /** Fields on every log record, e.g. `{integration: 'orders'}`. */
  logFields?: Record<string, unknown>;
  /** Where log records go besides the platform. */
  logSinks?: LogSink[];
  /** Wraps every sink, the platform's included: a last look at each record (e.g. to mask more), given the redactor. */
  wrapLogSink?: (sink: LogSink, redactor: SecretRedactor) => LogSink;
  /** Stand-ins for what the flows reach outside (flow tests). */
  sandbox?: RuntimeSandbox;
  /**
   * Trace every run however busy the thread, whatever FLOW_TRACE_SATURATED_RATE says: flow tests,
   * whose expectations read the runs' traces. Default: that variable's rate while saturated.
   */
  traceEveryRun?: boolean;
  /**
   * Tracing while the request thread is saturated, where FLOW_TRACE_SATURATED_RATE is unset: runs
   * a second, and runs traced at once as saturation begins (default a quarter second's worth).
   * Default DEFAULT_SATURATED_RATE; the studio traces fewer (STUDIO_SATURATED).
   */
  saturated?: { rate: number; burst?: number };
  /** Load only (the caller starts it later, e.g. after retiring the runtime it replaces). Default: start. */
  start?: boolean;
  /**
   * What schedules, timeouts, retry backoffs, lease renewals and queue redelivery waits run on.
   * Default the system clock; flow tests pass a virtual one (shared/clock.ts).
   */
  clock?: Clock;
  /**
   * False: a failed run writes no `warn` line of its own (RunFailureLog) — for a caller that logs
   * every failed run itself, as the studio does (one line per run, linked to it), so a failure is
   * not said twice. Default true: `flow-studio run`'s log is where a failure nobody waits on shows.
   */
  logFailedRuns?: boolean;
}

export interface StartedRuntime {
  runtime: Runtime;
  services: PlatformServices;
  log: Logger;
  redactor: SecretRedactor;
  /** Stops the runtime (draining in-flight messages), then the services it connected itself. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The one start-up of a runtime, for `flow-studio run`, a studio run and a local deployment:
 * the redactor (declared secrets, given secret values, the platform's credentials), the logger
 * and its shipping to the platform, the platform services, env resources folded beneath the
 * variables, `Runtime.load` and `start`. On any failure what it connected is closed again.
 */
export async function startRuntime(options: StartRuntimeOptions): Promise<StartedRuntime> {
  // Read first, so a bad value fails the start before anything is connected.
  const rate = options.traceEveryRun ? Infinity : saturatedRateFromEnv(options.variables);
  const budget = saturatedBudgetFromEnv(options.variables);
  // The rate variable, when set, decides alone: its rate with a quarter second's burst.
  const saturated = rate !== undefined ? { saturatedRate: rate } : { saturatedRate: options.saturated?.rate, burst: options.saturated?.burst };
  const traces = new TraceHub(new TraceAdmission({ ...saturated, budget }));
  const redactor = new SecretRedactor();
  for (const value of options.secretValues ?? []) redactor.add(value);
  redactor.add(options.platform?.token);
  for (const value of Object.values(options.platform?.headers ?? {})) redactor.add(value);
  const shipping = deferredLogSink();
  const sinks = [...(options.logSinks ?? []), shipping.sink];
  const fanOut: LogSink = (record) => {
    for (const sink of sinks) sink(record);
  };
  const log = createLogger({ level: options.logLevel ?? 'info', redactor, sinks: [options.wrapLogSink ? options.wrapLogSink(fanOut, redactor) : fanOut], fields: options.logFields });

  const owned = options.services ? undefined : await connectPlatform(options.platform, options.identity, log, options.clock);
  const services = options.services ?? owned!;
  shipping.forwardTo(services.telemetry.logSink);
  try {
    const variables = await foldEnvResources(options.variables, services.resources, options.envResources ?? []);
    const runtime = await loadRuntime(options.definitions, options.registry, {
      env: variables,
      log,
      redactor,
      services,
      identity: options.identity,
      integration: options.integration,
      sandbox: options.sandbox,
      clock: options.clock,
      traces,
      logFailedRuns: options.logFailedRuns,
    });
    if (options.start !== false) await runtime.start();
    return {
      runtime,
      services,
      log,
      redactor,
      async stop(graceMs) {
        await runtime.stop(graceMs);
        // Services outlive the runtime so in-flight acks and the last telemetry still reach the platform.
        await owned?.close();
      },
    };
  } catch (err) {
    await owned?.close();
    throw err;
  }
}

/**
 * Runtime.load against the registry given, else against the components the definitions name:
 * their modules alone are loaded. When that load finds problems, the definitions are loaded again
 * against every component, so the problems are reported as that finds them (an unknown type is
 * matched against every known one).
 */
async function loadRuntime(
  definitions: readonly DefinitionText[],
  registry: ComponentRegistry | undefined,
  options: Omit<LoadOptions, 'mode' | 'registry'> & { integration?: string },
): Promise<Runtime> {
  if (registry) return Runtime.load(definitions, { ...options, registry });
  try {
    return Runtime.load(definitions, { ...options, registry: await registryNaming(definitions) });
  } catch (err) {
    if (!(err instanceof LoadError)) throw err;
    return Runtime.load(definitions, { ...options, registry: await loadRegistry() });
  }
}

/** The platform services for a connection, or none; the caller closes them after its runtimes stop. */
export async function connectPlatform(platform: PlatformConnection | undefined, identity: Identity, log: Logger, clock?: Clock): Promise<PlatformServices> {
  if (!platform) return noPlatformServices;
  const config: ApiConfig = {
    baseUrl: platform.url.replace(/\/+$/, ''),
    token: platform.token,
    tokenFile: platform.tokenFile,
    headers: platform.headers ?? {},
    tls: platform.tls,
    discoveryBudgetMs: platform.discoveryBudgetMs ?? DEFAULT_DISCOVERY_BUDGET_MS,
    snapshotId: platform.snapshotId,
  };
  // Loaded on demand so `validate` never pays for the HTTP client.
  const { connectApiServices } = await import('./services/api-services.ts');
  return connectApiServices(config, identity, log, { clock, telemetry: { traceSampling: platform.traceSampling, inProcess: platform.inProcess, exportTraces: platform.exportTraces } });
}

/**
 * The platform a process environment names, as a deployed runtime reads it (spec 1 §1):
 * `FLOW_PLATFORM_API_URL` (with `RUNTIME_SERVICES_MODULE=api` or unset) and its companions, or
 * none (`RUNTIME_SERVICES_MODULE=none`, or nothing set). Only the CLI reads the environment; it
 * passes what this returns to `startRuntime`.
 */
export function platformFromEnv(env: Record<string, string | undefined>): PlatformConnection | undefined {
  const module = env.RUNTIME_SERVICES_MODULE;
  if (module === 'none' || ((module === undefined || module === '') && !env.FLOW_PLATFORM_API_URL)) return undefined;
  if (module !== undefined && module !== '' && module !== 'api') {
    throw new Error(`RUNTIME_SERVICES_MODULE="${module}" is not a services module; use "api" (with FLOW_PLATFORM_API_URL) or leave it unset`);
  }
  const config = apiConfigFromEnv(env);
  return {
    url: config.baseUrl,
    token: config.token,
    tokenFile: config.tokenFile,
    headers: config.headers,
    tls: config.tls,
    discoveryBudgetMs: config.discoveryBudgetMs,
    snapshotId: config.snapshotId,
    traceSampling: samplingFromEnv(env),
  };
}
