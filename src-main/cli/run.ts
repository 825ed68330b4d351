import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  connectPlatform,
  consoleSink,
  createLogger,
  envFilesIn,
  envResourcesToFold,
  formatProblem,
  identityFromEnv,
  LoadError,
  platformFromEnv,
  readDefinitions,
  saturatedBudgetFromEnv,
  samplingFromEnv,
  saturatedRateFromEnv,
  SecretRedactor,
  startRuntime,
  type Logger,
  type InProcessTelemetry,
  type PlatformConnection,
  type PlatformServices,
  type Runtime,
} from '../runtime/index.ts';
import { logLevelOf, RUN_USAGE } from './run-environment.ts';
import { remoteResourceNotes } from './remote-resource-notes.ts';
import { integrationsUnder } from './integrations-under.ts';
import { counted } from '../../shared/counted.ts';
import { onStopSignals } from './stop-signals.ts';
// Types only: the platform's code loads when an embedded platform starts, never for a remote one.
import type { DataDirHolder } from '../platform/index.ts';


export interface EmbeddedPlatform {
  url: string;
  token: string;
  inProcess: InProcessTelemetry;
  close(): Promise<void>;
}

/** Starts every integration under the path and runs until SIGINT/SIGTERM. */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    console.error(`flow-studio run: ${(err as Error).message}\n\n${RUN_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(RUN_USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    console.error(RUN_USAGE);
    return 2;
  }
  const integrations = integrationsUnder(parsed.positionals[0]);
  const env = process.env;
  const level = logLevelOf(env);
  // Checked before the embedded platform starts; each runtime reads it again from its variables.
  saturatedRateFromEnv(env);
  saturatedBudgetFromEnv(env);
  const traceSampling = samplingFromEnv(env);
  const identity = identityFromEnv(env);
  // This process's own log lines (start, stop), masked like the runtimes' once they exist.
  const redactor = new SecretRedactor();
  const log = createLogger({ level, redactor, sinks: [consoleSink] });

  let embedded: EmbeddedPlatform | undefined;
  let platform: PlatformConnection | undefined;
  const module = env.RUNTIME_SERVICES_MODULE;
  // Only `api` (or nothing) asks for a platform; an unknown module is refused by platformFromEnv.
  if (!env.FLOW_PLATFORM_API_URL && (!module || module === 'api')) {
    embedded = await startEmbeddedPlatform(parsed.values['data-dir'], integrations.map((files) => dirname(files[0])), env, log);
    platform = { url: embedded.url, token: embedded.token, inProcess: embedded.inProcess, traceSampling };
  } else {
    platform = platformFromEnv(env);
  }
  redactor.add(platform?.token);
  // One platform client for every integration of this process, closed after the last runtime stops.
  const services = await connectPlatform(platform, identity, log).catch(async (err: unknown) => {
    await embedded?.close();
    throw err;
  });
  const shutdown = async (): Promise<void> => {
    await services.close();
    await embedded?.close();
  };

  if (!embedded && platform) await warnOfMissingResources(integrations.map((files) => dirname(files[0])), platform.url, services, env, log);

  const runtimes: Runtime[] = [];
  try {
    for (const files of integrations) {
      // Env resources fold in beneath the process environment (spec 2 §4.4): those listed in
      // FLOW_ENV_RESOURCES, else the snapshot's (FLOW_SNAPSHOT_ID), else with the embedded
      // platform those seeded from <integration>/env/.
      const started = await startRuntime({
        definitions: readDefinitions(files),
        variables: env,
        envResources: await envResourcesToFold(env, services.resources, () => (embedded ? envFilesIn(dirname(files[0])) : [])),
        platform,
        services,
        identity,
        integration: basename(dirname(files[0])),
        logLevel: level,
        logSinks: [consoleSink],
        start: false,
      });
      runtimes.push(started.runtime);
    }
  } catch (err) {
    await shutdown();
    if (!(err instanceof LoadError)) throw err;
    for (const p of err.problems) console.error(formatProblem(p));
    return 1;
  }
  try {
    for (const r of runtimes) await r.start();
  } catch (err) {
    await Promise.all(runtimes.map((r) => r.stop()));
    await shutdown();
    throw err;
  }
  for (const r of runtimes) {
    for (const c of r.describe().connectors) if (c.details) log.info(`connector ${c.name} ready`, c.details);
  }
  // Signal handlers do not keep Node alive, and a flow may hold nothing else that does (a
  // schedule's timers and the platform client's are unref'd): without this the process would
  // exit as soon as it went idle, silently, instead of running until it is told to stop.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const inFlight = (): number => runtimes.reduce((n, r) => n + r.inFlight, 0);
    onStopSignals('run', resolve, () => counted(inFlight(), 'in-flight run'));
  });
  clearInterval(keepAlive);
  log.info(`${signal}: stopping; waiting up to 10 s for the runs in flight (a second ${signal} stops at once)`);
  await Promise.all(runtimes.map((r) => r.stop()));
  // Services outlive the runtimes so in-flight acks and the last telemetry still reach the platform.
  await shutdown();
  return 0;
}

/**
 * On a platform of its own, warns of the integrations' template and env files the flows will not
 * get (see remote-resource-notes.ts). Only a warning: the platform may be given them later, and a
 * failed look-up (the platform briefly away) must not stop a start that would otherwise work.
 */
async function warnOfMissingResources(dirs: string[], url: string, services: PlatformServices, env: NodeJS.ProcessEnv, log: Logger): Promise<void> {
  for (const dir of dirs) {
    try {
      for (const note of await remoteResourceNotes(dir, url, services.resources, env)) log.warn(note, { integration: dir });
    } catch (err) {
      log.debug('could not check which resources the platform holds', { integration: dir, error: (err as Error).message });
    }
  }
}

/**
 * The platform server in this process, for `run` without a remote platform: 127.0.0.1, a free
 * port, a token minted for this launch. Template and env resources found beside the definitions
 * (`<integration>/template/**`, `<integration>/env/**`) are loaded into it.
 */
export async function startEmbeddedPlatform(
  dataDirArg: string | undefined,
  integrationDirs: string[],
  env: NodeJS.ProcessEnv,
  log: Logger,
  shell: 'run' | 'debug' = 'run',
): Promise<EmbeddedPlatform> {
  const { lockDataDir, mintToken, startPlatformServer, seedResourcesFromDir } = await import('../platform/index.ts');
  const dataDir = resolve(dataDirArg ?? join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'flow-studio', 'platform'));
  // Its store must be the folder's only writer: a second run on the folder stops here, saying why.
  const lock = await lockDataDir(dataDir, shell, { instead: runBeside });
  const token = mintToken();
  let server;
  try {
    server = await startPlatformServer({ host: '127.0.0.1', port: 0, dataDir, token, features: env.FLOW_PLATFORM_FEATURES || undefined, dataDirLock: lock });
  } catch (err) {
    lock.release();
    throw err;
  }
  lock.announce(server.url);
  let seeded = 0;
  for (const dir of integrationDirs) seeded += await seedResourcesFromDir(server.resources, dir);
  log.info(`embedded platform listening on ${server.url}`, { dataDir, resources: seeded });
  const platform = server;
  return {
    url: platform.url,
    token,
    inProcess: { ingest: (kind, count, text) => platform.ingestTelemetry(kind, count, text) },
    close: () => platform.close().finally(() => lock.release()),
  };
}

/**
 * What a run refused a data folder in use can do instead: with a platform holding it, run on that
 * platform, with the token file it keeps (none when it was given --token; no token at all with --no-token).
 */
function runBeside(holder: DataDirHolder | undefined): string {
  const own = 'give this run a data folder of its own (--data-dir <another folder>)';
  if (holder?.shell === 'platform' && holder.url) {
    if (holder.noToken) return `to run flows on that platform, start this run with FLOW_PLATFORM_API_URL=${holder.url} (it asks for no token), or ${own}`;
    const token = holder.tokenFile ? `FLOW_PLATFORM_API_TOKEN_FILE=${holder.tokenFile}` : 'FLOW_PLATFORM_API_TOKEN set to the token it was given';
    return `to run flows on that platform, start this run with FLOW_PLATFORM_API_URL=${holder.url} and ${token}, or ${own}`;
  }
  return `to run flows beside it, ${own}, or start one platform (flow-studio platform) and point every run at it with FLOW_PLATFORM_API_URL and FLOW_PLATFORM_API_TOKEN_FILE`;
}
