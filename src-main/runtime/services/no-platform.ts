import { silentLogger } from '../core/logger.ts';
import { offlineTransport } from './api-http.ts';
import { assembleServices } from './assemble-services.ts';
import type { PlatformServices } from './platform-services.ts';

/**
 * A runtime without a platform (validation, tests, `RUNTIME_SERVICES_MODULE` unset): every
 * capability is off with its default policy, so KV reads miss and writes, leases and leadership
 * fail naming the missing configuration. Nothing is known about a platform, so nothing is
 * refused at load.
 */
export const noPlatformServices: PlatformServices = assembleServices({
  transport: offlineTransport,
  discovery: undefined,
  identity: { deploymentId: 'local', instanceId: 'local-1' },
  log: silentLogger,
  implementation: 'none',
});
