import type { Clock } from '../../../shared/clock.ts';
import type { Logger } from '../core/logger.ts';
import { apiConfigFromEnv, identityFromEnv, type ApiConfig, type Identity } from './api-config.ts';
import { assembleServices, describeCapabilities, type AssembledServices, type AssembleOptions } from './assemble-services.ts';
import { checkCredentials, discover, type Discovery } from './discovery.ts';
import { HttpTransport } from './http-transport.ts';
import { samplingFromEnv } from './trace-sampling.ts';

export interface ApiServicesOptions {
  /** Shipping bounds; tests shrink them. */
  telemetry?: AssembleOptions['telemetry'];
  /** Discovery's backoff, lease renewals and leader campaigns run on it; default the system clock. */
  clock?: Clock;
}

/**
 * The `api` services module: reads its configuration from the environment, discovers what the
 * platform implements (retrying within the budget), and logs the implementation and each
 * capability's state once at startup.
 */
export async function createApiServices(env: Record<string, string | undefined>, log: Logger, options: ApiServicesOptions = {}): Promise<AssembledServices> {
  return connectApiServices(apiConfigFromEnv(env), identityFromEnv(env), log, { ...options, telemetry: { traceSampling: samplingFromEnv(env), ...options.telemetry } });
}

/** The same from typed configuration, as `startRuntime` passes it. */
export async function connectApiServices(config: ApiConfig, identity: Identity, log: Logger, options: ApiServicesOptions = {}): Promise<AssembledServices> {
  const transport = new HttpTransport(config);
  let discovery: Discovery;
  try {
    discovery = await discover(transport, config.baseUrl, { budgetMs: config.discoveryBudgetMs, clock: options.clock }, log);
    await checkCredentials(transport, config.baseUrl, discovery);
  } catch (err) {
    await transport.close();
    throw err;
  }
  const impl = discovery.implementation?.name;
  const implementation = impl ? `api (${impl}${discovery.implementation?.version ? ` ${discovery.implementation.version}` : ''})` : 'api';
  const services = assembleServices({ transport, discovery, identity, log, implementation, telemetry: options.telemetry, snapshotId: config.snapshotId, clock: options.clock });
  log.info(`platform services: ${implementation} at ${config.baseUrl}`, {
    specVersion: discovery.specVersion,
    deployment: identity.deploymentId,
    instance: identity.instanceId,
    capabilities: describeCapabilities(services),
    ...(config.snapshotId ? { snapshot: config.snapshotId } : {}),
  });
  return services;
}
