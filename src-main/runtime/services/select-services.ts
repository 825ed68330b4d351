import type { Logger } from '../core/logger.ts';
import { noPlatformServices, type PlatformServices } from './platform-services.ts';

/**
 * Picks the services module from the environment, as a deployed runtime does:
 * `RUNTIME_SERVICES_MODULE=api` with `FLOW_PLATFORM_API_URL` (spec 1 §1). Anything else runs
 * without a platform.
 */
export async function selectPlatformServices(env: Record<string, string | undefined>, log: Logger): Promise<PlatformServices> {
  const module = env.RUNTIME_SERVICES_MODULE;
  if (module === undefined || module === '' || module === 'none') return noPlatformServices;
  if (module === 'api') {
    // The delegation API client lands with the runtime-services issue; until then say so plainly.
    log.warn('RUNTIME_SERVICES_MODULE=api: the delegation API client is not available in this build; running without a platform');
    return noPlatformServices;
  }
  throw new Error(`RUNTIME_SERVICES_MODULE="${module}" is not a services module; use "api" (with FLOW_PLATFORM_API_URL) or leave it unset`);
}
