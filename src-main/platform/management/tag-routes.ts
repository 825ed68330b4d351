import { MAX_JSON_BODY_BYTES } from '../delegation/platform-context.ts';
import type { Features } from '../features.ts';
import { badRequest, notFound } from '../http/api-error.ts';
import { readJsonObject, sendBytes, sendJson } from '../http/http-io.ts';
import { optionalString, requiredQuery, requiredString } from '../http/request-fields.ts';
import type { Route } from '../http/router.ts';
import { resourceKinds, type ResourceKind } from '../store/resource-store.ts';
import type { Management } from './management.ts';
import { actorOf, checkId } from './names.ts';
import { snapshotView } from './views.ts';

const integrationId = (raw: string): string => checkId(raw, 'the integration id', 'orders-api');

/** Version tags of an integration, and the frozen snapshots they name (spec 2 §3.2, §9). */
export function tagRoutes(m: Management, features: Features): Route[] {
  const route = (method: Route['method'], path: string, handle: Route['handle']): Route => ({ method, path, capability: 'management', enabled: true, handle });
  return [
    route('POST', '/integrations/{id}/tags', async (ctx) => {
      const id = integrationId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const body = await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES);
      const tag = checkId(requiredString(body, 'tag', 200), 'the tag', 'v1.0.0');
      const snapshot = await m.snapshots.createTag(id, tag, optionalString(body, 'description', 2000), actor);
      sendJson(ctx.res, 201, snapshotView(snapshot), { location: `/integrations/${id}/tags/${tag}` });
    }),
    route('GET', '/integrations/{id}/tags', async (ctx) => {
      sendJson(ctx.res, 200, { tags: (await m.snapshots.listTags(integrationId(ctx.params.id))).map(snapshotView) });
    }),
    route('GET', '/integrations/{id}/tags/{tag}', async (ctx) => {
      sendJson(ctx.res, 200, snapshotView(await m.snapshots.getTag(integrationId(ctx.params.id), ctx.params.tag)));
    }),
    route('GET', '/snapshots/{id}', async (ctx) => {
      sendJson(ctx.res, 200, snapshotView(await m.snapshots.get(ctx.params.id)));
    }),
    route('GET', '/snapshots/{id}/bundle', async (ctx) => {
      const bundle = await m.snapshotBundle(ctx.params.id);
      sendBytes(ctx.res, 200, bundle, { 'content-type': 'application/x-tar', 'content-disposition': `attachment; filename="${ctx.params.id}.tar"` });
    }),
    {
      // What a deployed runtime with FLOW_SNAPSHOT_ID reads instead of /v1/resources/content:
      // the same query and answers, over the tag's frozen resources.
      method: 'GET',
      path: '/snapshots/{id}/resources/content',
      capability: 'resources',
      enabled: features.resources.supported,
      async handle(ctx) {
        const example = `/snapshots/${ctx.params.id}/resources/content?kind=template&name=emails%2Fwelcome.txt`;
        const kind = requiredQuery(ctx.query, 'kind', example);
        if (!resourceKinds.includes(kind as ResourceKind)) {
          throw badRequest('invalid_parameter', `the query parameter "kind" must be one of ${resourceKinds.join(', ')}, got "${kind.slice(0, 40)}"`);
        }
        const name = requiredQuery(ctx.query, 'name', example);
        const content = await m.snapshots.resourceContent(ctx.params.id, kind as ResourceKind, name);
        if (!content) throw notFound('resource_not_found', `snapshot ${ctx.params.id} has no ${kind} resource named "${name}"`);
        sendBytes(ctx.res, 200, content, { 'content-type': kind === 'env' ? 'text/plain; charset=utf-8' : 'application/octet-stream' });
      },
    },
  ];
}
