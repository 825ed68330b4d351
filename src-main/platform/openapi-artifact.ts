import { fileURLToPath } from 'node:url';
import { platformOpenApi } from '../../shared/platform-api/openapi.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * shared/platform-openapi.json, generated from the route declarations in shared/platform-api/
 * by `npm run gen`; the platform serves it at /v1/openapi.json and a test fails when the
 * committed copy differs.
 */
export function platformApiArtifacts(): Array<{ path: string; content: string }> {
  return [{ path: `${root}shared/platform-openapi.json`, content: JSON.stringify(platformOpenApi(), null, 2) + '\n' }];
}
