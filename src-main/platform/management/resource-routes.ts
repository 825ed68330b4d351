import { MAX_JSON_BODY_BYTES } from '../delegation/platform-context.ts';
import { readJsonObject, sendBytes, sendEmpty, sendJson } from '../http/http-io.ts';
import { objectVersionHeader, optionalString, requiredString } from '../http/request-fields.ts';
import type { Route } from '../http/router.ts';
import type { ResourceKind } from '../store/resource-store.ts';
import type { Management } from './management.ts';
import { actorOf, checkId } from './names.ts';
import { contentOf, contentView, resourceView } from './views.ts';

const PATH = '/integrations/{id}/resources';
const ONE = `${PATH}/{resourceId}`;
const integrationId = (raw: string): string => checkId(raw, 'the integration id', 'orders-api');

/**
 * The five resource routes of spec 2 §4.2, plus the download of one resource's bytes. Resources
 * are addressed by the id the server gives them, since names may contain a slash.
 */
export function resourceManagementRoutes(m: Management): Route[] {
  const route = (method: Route['method'], path: string, handle: Route['handle']): Route => ({ method, path, capability: 'management', enabled: true, handle });
  return [
    route('POST', PATH, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const body = await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES);
      const kind = requiredString(body, 'kind', 40) as ResourceKind;
      const name = typeof body.name === 'string' ? body.name : requiredString(body, 'name');
      const created = await m.integrations.createResource(id, { kind, name, content: contentOf(body, true)! }, actor);
      sendJson(ctx.res, 201, resourceView(created), { location: `/integrations/${encodeURIComponent(id)}/resources/${created.id}` });
    }),
    route('GET', PATH, async (ctx) => {
      sendJson(ctx.res, 200, { resources: (await m.integrations.listResources(integrationId(ctx.params.id))).map(resourceView) });
    }),
    route('GET', ONE, async (ctx) => {
      const r = await m.integrations.getResource(integrationId(ctx.params.id), ctx.params.resourceId);
      sendJson(ctx.res, 200, { ...resourceView(r), ...contentView(r.content) });
    }),
    route('PUT', ONE, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const expected = objectVersionHeader(ctx.req.headers['x-object-version']);
      const body = await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES);
      const patch = {
        kind: optionalString(body, 'kind', 40) as ResourceKind | undefined,
        name: optionalString(body, 'name'),
        content: contentOf(body, false),
      };
      const updated = await m.integrations.updateResource(id, ctx.params.resourceId, patch, expected, actor);
      sendJson(ctx.res, 200, resourceView(updated));
    }),
    route('DELETE', ONE, async (ctx) => {
      await m.integrations.deleteResource(integrationId(ctx.params.id), ctx.params.resourceId, actorOf(ctx.req.headers['x-flow-actor']));
      sendEmpty(ctx.res, 204);
    }),
    route('GET', `${ONE}/content`, async (ctx) => {
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
