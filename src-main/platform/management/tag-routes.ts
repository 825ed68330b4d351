import * as api from '../../../shared/platform-api/version-tags.ts';
import type { Features } from '../features.ts';
import { notFound } from '../http/api-error.ts';
import { implement } from '../http/contract-route.ts';
import { sendBytes, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { Management } from './management.ts';
import { actorOf, checkId } from './names.ts';
import { snapshotView } from './views.ts';

const integrationId = (raw: string): string => checkId(raw, 'the integration id', 'orders-api');
const binding = { capability: 'management', enabled: true };

/** Version tags of an integration, and the frozen snapshots they name (spec 2 §3.2, §9). */
export function tagRoutes(m: Management, features: Features): Route[] {
  return [
    implement(api.createTag, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const { tag, description } = await ctx.json();
      const snapshot = await m.snapshots.createTag(id, tag, description, actor);
      sendJson(ctx.res, 201, snapshotView(snapshot), { location: `/integrations/${id}/tags/${tag}` });
    }),
    implement(api.listTags, binding, async (ctx) => {
      sendJson(ctx.res, 200, { tags: (await m.snapshots.listTags(integrationId(ctx.params.id))).map(snapshotView) });
    }),
    implement(api.getTag, binding, async (ctx) => {
      sendJson(ctx.res, 200, snapshotView(await m.snapshots.getTag(integrationId(ctx.params.id), ctx.params.tag)));
    }),
    implement(api.getSnapshot, binding, async (ctx) => {
      sendJson(ctx.res, 200, snapshotView(await m.snapshots.get(ctx.params.id)));
    }),
    implement(api.downloadSnapshotBundle, binding, async (ctx) => {
      const bundle = await m.snapshotBundle(ctx.params.id);
      sendBytes(ctx.res, 200, bundle, { 'content-type': 'application/x-tar', 'content-disposition': `attachment; filename="${ctx.params.id}.tar"` });
    }),
    // What a deployed runtime with FLOW_SNAPSHOT_ID reads instead of /v1/resources/content:
    // the same query and answers, over the tag's frozen resources.
    implement(api.getSnapshotResource, { capability: 'resources', enabled: features.resources.supported }, async (ctx) => {
      const { kind, name } = ctx.input;
      const content = await m.snapshots.resourceContent(ctx.params.id, kind, name);
      if (!content) throw notFound('resource_not_found', `snapshot ${ctx.params.id} has no ${kind} resource named "${name}"`);
      sendBytes(ctx.res, 200, content, { 'content-type': kind === 'env' ? 'text/plain; charset=utf-8' : 'application/octet-stream' });
    }),
  ];
}
