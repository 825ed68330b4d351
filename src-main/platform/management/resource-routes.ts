import * as api from '../../../shared/platform-api/integration-resources.ts';
import { implement } from '../http/contract-route.ts';
import { objectVersionHeader } from '../http/headers-and-names.ts';
import { sendBytes, sendEmpty, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { Management } from './management.ts';
import { actorOf, checkId } from './names.ts';
import { contentOf, contentView, resourceView } from './views.ts';

const integrationId = (raw: string): string => checkId(raw, 'the integration id', 'orders-api');
const binding = { capability: 'management', enabled: true };

/**
 * The five resource routes of spec 2 §4.2, plus the download of one resource's bytes. Resources
 * are addressed by the id the server gives them, since names may contain a slash. A name's
 * rules (spec 2 §2.11) are the store's, each with its own code, so the schemas leave them out.
 */
export function resourceManagementRoutes(m: Management): Route[] {
  return [
    implement(api.createResource, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const body = await ctx.json();
      const created = await m.integrations.createResource(id, { kind: body.kind, name: body.name, content: contentOf(body) }, actor);
      sendJson(ctx.res, 201, resourceView(created), { location: `/integrations/${encodeURIComponent(id)}/resources/${created.id}` });
    }),
    implement(api.listResources, binding, async (ctx) => {
      sendJson(ctx.res, 200, { resources: (await m.integrations.listResources(integrationId(ctx.params.id))).map(resourceView) });
    }),
    implement(api.getIntegrationResource, binding, async (ctx) => {
      const r = await m.integrations.getResource(integrationId(ctx.params.id), ctx.params.resourceId);
      sendJson(ctx.res, 200, { ...resourceView(r), ...contentView(r.content) });
    }),
    implement(api.updateResource, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const expected = objectVersionHeader(ctx.req.headers['x-object-version']);
      const { kind, name, content, encoding } = await ctx.json();
      const patch = { kind, name, content: content === undefined ? undefined : contentOf({ content, encoding }) };
      const updated = await m.integrations.updateResource(id, ctx.params.resourceId, patch, expected, actor);
      sendJson(ctx.res, 200, resourceView(updated));
    }),
    implement(api.deleteResource, binding, async (ctx) => {
      await m.integrations.deleteResource(integrationId(ctx.params.id), ctx.params.resourceId, actorOf(ctx.req.headers['x-flow-actor']));
      sendEmpty(ctx.res, 204);
    }),
    implement(api.downloadResource, binding, async (ctx) => {
      const r = await m.integrations.getResource(integrationId(ctx.params.id), ctx.params.resourceId);
      const file = r.name.slice(r.name.lastIndexOf('/') + 1);
      sendBytes(ctx.res, 200, r.content, {
        'content-type': r.kind === 'env' ? 'text/plain; charset=utf-8' : 'application/octet-stream',
        'content-disposition': `attachment; filename="${file.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file)}`,
        'x-object-version': r.version,
      });
    }),
  ];
}
