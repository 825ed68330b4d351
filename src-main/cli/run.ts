import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LoadError, formatProblem } from '../runtime/core/errors.ts';
import { consoleSink, createLogger, SecretRedactor, type Logger } from '../runtime/core/logger.ts';
import { discoverIntegrations, readDefinitions } from '../runtime/core/load/integration-files.ts';
import { Runtime } from '../runtime/core/runtime.ts';
import { registry } from '../runtime/registry.ts';
import { envFilesIn, foldEnvResources } from '../runtime/services/env-resources.ts';
import { envResourcesToFold } from '../runtime/services/env-resources-to-fold.ts';
import { deferredLogSink } from '../runtime/services/log-forwarding.ts';
import { selectPlatformServices } from '../runtime/services/select-services.ts';
import { logLevelOf, RUN_USAGE } from './run-environment.ts';


interface EmbeddedPlatform {
  url: string;
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
  const integrations = discoverIntegrations(parsed.positionals[0]);
  const redactor = new SecretRedactor();
  const shipping = deferredLogSink();
  const log = createLogger({ level: logLevelOf(process.env), redactor, sinks: [consoleSink, shipping.sink] });

  const env: Record<string, string | undefined> = { ...process.env };
  let embedded: EmbeddedPlatform | undefined;
  const module = env.RUNTIME_SERVICES_MODULE;
  // Only `api` (or nothing) asks for a platform; an unknown module is refused by selectPlatformServices.
  if (!env.FLOW_PLATFORM_API_URL && (!module || module === 'api')) {
    embedded = await startEmbeddedPlatform(parsed.values['data-dir'], integrations.map((files) => dirname(files[0])), env, log);
  } else if (env.FLOW_PLATFORM_API_URL && !env.RUNTIME_SERVICES_MODULE) {
    // A platform address alone says what is meant.
    env.RUNTIME_SERVICES_MODULE = 'api';
  }

  // The platform credential is masked should a definition ever echo it.
  redactor.add(env.FLOW_PLATFORM_API_TOKEN);
  const services = await selectPlatformServices(env, log).catch(async (err: unknown) => {
    await embedded?.close();
    throw err;
  });
  shipping.forwardTo(services.telemetry.logSink);
  const shutdown = async (): Promise<void> => {
    await services.close();
    await embedded?.close();
  };

  const runtimes: Runtime[] = [];
  try {
    for (const files of integrations) {
      // Env resources fold in beneath the process environment (spec 2 §4.4): those listed in
      // FLOW_ENV_RESOURCES, else the snapshot's (FLOW_SNAPSHOT_ID), else with the embedded
      // platform those seeded from <integration>/env/.
      const names = await envResourcesToFold(env, services.resources, () => (embedded ? envFilesIn(dirname(files[0])) : []));
      const runtimeEnv = await foldEnvResources(env, services.resources, names);
      runtimes.push(Runtime.load(readDefinitions(files), { registry, env: runtimeEnv, log, redactor, services, integration: basename(dirname(files[0])) }));
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
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  clearInterval(keepAlive);
  log.info('stopping');
  await Promise.all(runtimes.map((r) => r.stop()));
  // Services outlive the runtimes so in-flight acks and the last telemetry still reach the platform.
  await shutdown();
  return 0;
}

/**
 * The platform server in this process, for `run` without a remote platform: 127.0.0.1, a free
 * port, a token minted for this launch. Template and env resources found beside the definitions
 * (`<integration>/template/**`, `<integration>/env/**`) are loaded into it.
 */
async function startEmbeddedPlatform(
  dataDirArg: string | undefined,
  integrationDirs: string[],
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<EmbeddedPlatform> {
  const { startPlatformServer, seedResourcesFromDir } = await import('../platform/index.ts');
  const dataDir = resolve(dataDirArg ?? join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'flow-studio', 'platform'));
  const token = randomBytes(24).toString('base64url');
  const server = await startPlatformServer({ host: '127.0.0.1', port: 0, dataDir, token, features: env.FLOW_PLATFORM_FEATURES || undefined });
  let seeded = 0;
  for (const dir of integrationDirs) seeded += seedResourcesFromDir(server.resources, dir);
  env.RUNTIME_SERVICES_MODULE = 'api';
  env.FLOW_PLATFORM_API_URL = server.url;
  env.FLOW_PLATFORM_API_TOKEN = token;
  delete env.FLOW_PLATFORM_API_TOKEN_FILE;
  log.info(`embedded platform listening on ${server.url}`, { dataDir, resources: seeded });
  return { url: server.url, close: () => server.close() };
}
