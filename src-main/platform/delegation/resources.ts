import { badRequest, notFound } from '../http/api-error.ts';
import { sendBytes } from '../http/http-io.ts';
import { requiredQuery } from '../http/request-fields.ts';
import type { Route } from '../http/router.ts';
import { resourceKinds, type ResourceKind } from '../store/resource-store.ts';
import type { PlatformContext } from './platform-context.ts';

/** Env and template resources by kind and name (names may contain slashes), §4.1. */
export function resourceRoutes(p: PlatformContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/resources/content',
      capability: 'resources',
      enabled: p.features.resources.supported,
      async handle(ctx) {
        const kind = requiredQuery(ctx.query, 'kind', '/v1/resources/content?kind=template&name=emails%2Fwelcome.txt');
        if (!resourceKinds.includes(kind as ResourceKind)) {
          throw badRequest('invalid_parameter', `the query parameter "kind" must be one of ${resourceKinds.join(', ')}, got "${kind.slice(0, 40)}"`);
        }
        const name = requiredQuery(ctx.query, 'name', `/v1/resources/content?kind=${kind}&name=emails%2Fwelcome.txt`);
        const content = await p.resources.read(kind as ResourceKind, name);
        if (!content) throw notFound('resource_not_found', `no ${kind} resource named "${name}"`);
        sendBytes(ctx.res, 200, content, { 'content-type': kind === 'env' ? 'text/plain; charset=utf-8' : 'application/octet-stream' });
      },
    },
  ];
}
