import { readFileSync } from 'node:fs';
import { getDiscovery, getOpenApi } from '../../../shared/platform-api/discovery.ts';
import { ApiError } from '../http/api-error.ts';
import { implement } from '../http/contract-route.ts';
import { sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import { nothingImplemented, type Features } from '../features.ts';
import type { PlatformContext } from './platform-context.ts';

export const SPEC_VERSION = '1.0';
const OPENAPI_URL = new URL('../../../shared/platform-openapi.json', import.meta.url);

/**
 * GET /v1/discovery declares every capability with the numbers this server enforces; a
 * switched-off capability is `supported: false` (with its `unsupported` policy when the
 * features file sets one). With every capability off it answers 501, "nothing implemented".
 */
export function discoveryRoutes(p: PlatformContext): Route[] {
  const document = JSON.stringify(discoveryDocument(p.features, p.implementation));
  const nothing = nothingImplemented(p.features);
  let openapi: string | undefined;
  return [
    implement(getDiscovery, { capability: 'discovery', enabled: true }, (ctx) => {
      if (nothing) throw new ApiError(501, 'not_implemented', 'this server implements no capability of the delegation API (every feature is switched off)');
      sendJson(ctx.res, 200, document);
    }),
    implement(getOpenApi, { capability: 'discovery', enabled: true }, (ctx) => {
      openapi ??= readFileSync(OPENAPI_URL, 'utf8');
      sendJson(ctx.res, 200, openapi);
    }),
  ];
}

/** The namespaces the runtime sends today; informational, any other name is served the same way. */
const KNOWN_NAMESPACES = ['system', 'user', 'system_secrets', 'user_secrets', 'system_volatile', 'user_volatile'];

export function discoveryDocument(features: Features, implementation: { name: string; version: string }): unknown {
  const blocks: Record<string, unknown> = {};
  for (const [name, block] of Object.entries(features) as Array<[string, Features[keyof Features]]>) {
    blocks[name] = block.supported ? block : { supported: false, ...(block.unsupported ? { unsupported: block.unsupported } : {}) };
  }
  if (features.kv.supported) blocks.kv = { ...features.kv, namespaces: KNOWN_NAMESPACES };
  return { specVersion: SPEC_VERSION, implementation, features: blocks };
}
