import { fileURLToPath } from 'node:url';
import { platformOpenApi } from '../../shared/platform-api/openapi.ts';
import { routeAddressesModule } from '../../shared/platform-api/route-addresses-module.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Generated from the route declarations in shared/platform-api/ by `npm run gen`; a test fails
 * when a committed copy differs: shared/platform-openapi.json, which the platform serves at
 * /v1/openapi.json, and shared/platform-api/route-addresses.ts, what the runtime's client calls.
 */
export function platformApiArtifacts(): Array<{ path: string; content: string }> {
  return [
    { path: `${root}shared/platform-openapi.json`, content: JSON.stringify(platformOpenApi(), null, 2) + '\n' },
    { path: `${root}shared/platform-api/route-addresses.ts`, content: routeAddressesModule() },
  ];
}
