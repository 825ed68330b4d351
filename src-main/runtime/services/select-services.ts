import type { Logger } from '../core/logger.ts';
import { noPlatformServices, type PlatformServices } from './platform-services.ts';

/**
 * Picks the services module from the environment, as a deployed runtime does:
 * `RUNTIME_SERVICES_MODULE=api` with `FLOW_PLATFORM_API_URL` (spec 1 §1). Anything else runs
 * without a platform.
 *
 * The caller owns the result: close it after every runtime using it has stopped (a hot reload
 * passes one services instance from the old runtime to the new one, so a runtime never closes
 * services itself).
 */
export async function selectPlatformServices(env: Record<string, string | undefined>, log: Logger): Promise<PlatformServices> {
  const module = env.RUNTIME_SERVICES_MODULE;
  if (module === undefined || module === '' || module === 'none') return noPlatformServices;
  if (module === 'api') {
    // Loaded on demand so `validate` never pays for the HTTP client.
    const { createApiServices } = await import('./api-services.ts');
    return createApiServices(env, log);
  }
  throw new Error(`RUNTIME_SERVICES_MODULE="${module}" is not a services module; use "api" (with FLOW_PLATFORM_API_URL) or leave it unset`);
}
