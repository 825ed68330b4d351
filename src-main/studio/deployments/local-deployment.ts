import type { Management } from '../../platform/index.ts';
import { createLogger, SecretRedactor, type LogSink } from '../../runtime/core/logger.ts';
import type { ComponentRegistry } from '../../runtime/core/registry-types.ts';
import { Runtime } from '../../runtime/core/runtime.ts';
import { foldEnvResources } from '../../runtime/services/env-resources.ts';
import { deferredLogSink } from '../../runtime/services/log-forwarding.ts';
import type { PlatformServices } from '../../runtime/services/platform-services.ts';
import { selectPlatformServices } from '../../runtime/services/select-services.ts';

/** The platform a local deployment runs against: reached over HTTP, its management in process. */
export interface DeploymentPlatform {
  url: string;
  token: string | undefined;
  management: Management;
}

export interface LocalDeploymentOptions {
  registry: ComponentRegistry;
  /** Where the runtime's log records go besides the platform (which stores them). */
  sinks?: LogSink[];
  /** Variables the orchestrator manages, e.g. `{HTTP_PORT: '0', HTTP_HOST: '127.0.0.1'}`; they win over bindings. */
  managedEnv?: Record<string, string>;
  instanceId?: string;
  /** How long `stop` waits for in-flight messages. */
  graceMs?: number;
}

export interface RunningDeployment {
  readonly id: string;
  readonly snapshotId: string;
  readonly runtime: Runtime;
  /** Stops the runtime (draining in-flight messages), then its platform client. */
  stop(): Promise<void>;
}

/**
 * Starts a runtime for a deployment, as a cluster would start its pod:
 *
 * - the container environment is the deployment's literal bindings and resolved secret
 *   references (an empty binding injects nothing), the managed variables, the platform address
 *   and `FLOW_SNAPSHOT_ID`; nothing is inherited from this process's environment;
 * - the runtime reads the tag's frozen resources over HTTP (FLOW_SNAPSHOT_ID) and folds the env
 *   resources in declared order beneath the container environment; declared defaults come last
 *   (spec 2 §4.4);
 * - values bound from secrets are masked in its logs and traces, whether or not the definition
 *   declares them secret.
 *
 * A binding to a secret deleted since the deploy fails the start, naming the secret.
 */
export async function startLocalDeployment(platform: DeploymentPlatform, deploymentId: string, options: LocalDeploymentOptions): Promise<RunningDeployment> {
  const { snapshot, env: bound, secretVariables } = platform.management.deployments.containerEnv(deploymentId);
  const envResources = snapshot.resources.filter((r) => r.kind === 'env').map((r) => r.name);
  const env: Record<string, string> = {
    ...bound,
    ...options.managedEnv,
    RUNTIME_SERVICES_MODULE: 'api',
    FLOW_PLATFORM_API_URL: platform.url,
    ...(platform.token ? { FLOW_PLATFORM_API_TOKEN: platform.token } : {}),
    FLOW_SNAPSHOT_ID: snapshot.id,
    FLOW_DEPLOYMENT_ID: deploymentId,
    FLOW_INSTANCE_ID: options.instanceId ?? `${deploymentId}-local`,
    FLOW_ENV_RESOURCES: JSON.stringify(envResources),
  };

  const redactor = new SecretRedactor();
  for (const name of secretVariables) redactor.add(bound[name]);
  redactor.add(platform.token);
  const shipping = deferredLogSink();
  const log = createLogger({ level: 'info', redactor, sinks: [...(options.sinks ?? []), shipping.sink], fields: { deployment: deploymentId } });

  const services: PlatformServices = await selectPlatformServices(env, log);
  shipping.forwardTo(services.telemetry.logSink);
  let runtime: Runtime;
  try {
    const folded = await foldEnvResources(env, services.resources, envResources);
    const texts = platform.management.snapshots.definitions(snapshot.id).map((d) => ({ file: d.file, text: d.content.toString('utf8') }));
    runtime = Runtime.load(texts, {
      registry: options.registry,
      env: folded,
      log,
      redactor,
      services,
      identity: { deploymentId, instanceId: env.FLOW_INSTANCE_ID },
    });
    await runtime.start();
  } catch (err) {
    await services.close();
    throw err;
  }
  log.info('deployment started', { integration: snapshot.integration, tag: snapshot.tag, snapshot: snapshot.id });
  return {
    id: deploymentId,
    snapshotId: snapshot.id,
    runtime,
    async stop() {
      await runtime.stop(options.graceMs ?? 10_000);
      await services.close();
    },
  };
}
