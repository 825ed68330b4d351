import { getResource } from '../../../shared/platform-api/resources.ts';
import { notFound } from '../http/api-error.ts';
import { implement } from '../http/contract-route.ts';
import { sendBytes } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { PlatformContext } from './platform-context.ts';

/** Env and template resources by kind and name (names may contain slashes), §4.1. */
export function resourceRoutes(p: PlatformContext): Route[] {
  return [
    implement(getResource, { capability: 'resources', enabled: p.features.resources.supported }, async (ctx) => {
      const { kind, name } = ctx.input;
      const content = await p.resources.read(kind, name);
      if (!content) throw notFound('resource_not_found', `no ${kind} resource named "${name}"`);
      sendBytes(ctx.res, 200, content, { 'content-type': kind === 'env' ? 'text/plain; charset=utf-8' : 'application/octet-stream' });
    }),
  ];
}
