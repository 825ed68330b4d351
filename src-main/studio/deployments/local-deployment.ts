import type { Management } from '../../platform/index.ts';
import { samplingFromEnv, startRuntime, type ComponentRegistry, type LogSink, type Runtime } from '../../runtime/index.ts';

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
 *   references (an empty binding injects nothing) and the managed variables; the platform
 *   address and the snapshot are passed to `startRuntime` as typed values; nothing is inherited
 *   from this process's environment;
 * - the runtime reads the tag's frozen resources over HTTP (FLOW_SNAPSHOT_ID) and folds the env
 *   resources in declared order beneath the container environment; declared defaults come last
 *   (spec 2 §4.4);
 * - values bound from secrets are masked in its logs and traces, whether or not the definition
 *   declares them secret.
 *
 * A binding to a secret deleted since the deploy fails the start, naming the secret.
 */
export async function startLocalDeployment(platform: DeploymentPlatform, deploymentId: string, options: LocalDeploymentOptions): Promise<RunningDeployment> {
  const { snapshot, env: bound, secretVariables } = await platform.management.deployments.containerEnv(deploymentId);
  const envResources = snapshot.resources.filter((r) => r.kind === 'env').map((r) => r.name);
  const texts = (await platform.management.snapshots.definitions(snapshot.id)).map((d) => ({ file: d.file, text: d.content.toString('utf8') }));
  const { runtime, log, stop } = await startRuntime({
    definitions: texts,
    registry: options.registry,
    variables: { ...bound, ...options.managedEnv },
    envResources,
    // Sampling is read from the container environment, as a deployed pod reads it.
    platform: { url: platform.url, token: platform.token, snapshotId: snapshot.id, traceSampling: samplingFromEnv({ ...bound, ...options.managedEnv }) },
    identity: { deploymentId, instanceId: options.instanceId ?? `${deploymentId}-local` },
    integration: snapshot.integration,
    secretValues: secretVariables.map((name) => bound[name]),
    logSinks: options.sinks,
    logFields: { deployment: deploymentId },
  });
  log.info('deployment started', { integration: snapshot.integration, tag: snapshot.tag, snapshot: snapshot.id });
  return {
    id: deploymentId,
    snapshotId: snapshot.id,
    runtime,
    stop: () => stop(options.graceMs ?? 10_000),
  };
}
