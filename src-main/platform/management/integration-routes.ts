import * as api from '../../../shared/platform-api/integrations.ts';
import { tooLarge } from '../http/api-error.ts';
import { implement } from '../http/contract-route.ts';
import { sendBytes, sendEmpty, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { Management } from './management.ts';
import { actorOf, checkDefinitionFile, checkId } from './names.ts';
import { contentOf, contentView, integrationView } from './views.ts';

/** A bundle upload may hold every definition and resource of an integration at once. */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

const integrationId = (raw: string): string => checkId(raw, 'the integration id', 'orders-api');
const binding = { capability: 'management', enabled: true };

/** Integrations, their definition files, and their bundle (download and upload). */
export function integrationRoutes(m: Management): Route[] {
  return [
    implement(api.listIntegrations, binding, async (ctx) => {
      sendJson(ctx.res, 200, { integrations: (await m.integrations.list()).map(integrationView) });
    }),
    implement(api.getIntegration, binding, async (ctx) => {
      sendJson(ctx.res, 200, integrationView(await m.integrations.require(integrationId(ctx.params.id))));
    }),
    implement(api.createIntegration, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const created = await m.integrations.ensure(id, actorOf(ctx.req.headers['x-flow-actor']));
      sendJson(ctx.res, created ? 201 : 200, integrationView(await m.integrations.require(id)));
    }),

    implement(api.listDefinitions, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const definitions = (await m.integrations.listDefinitions(id)).map((d) => ({ ...d, updatedAt: new Date(d.updatedAt).toISOString() }));
      sendJson(ctx.res, 200, { definitions });
    }),
    implement(api.getDefinition, binding, async (ctx) => {
      const d = await m.integrations.getDefinition(integrationId(ctx.params.id), ctx.params.file);
      sendJson(ctx.res, 200, { file: d.file, bytes: d.bytes, updatedAt: new Date(d.updatedAt).toISOString(), updatedBy: d.updatedBy, ...contentView(d.content) });
    }),
    implement(api.putDefinition, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const file = checkDefinitionFile(ctx.params.file);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const content = contentOf(await ctx.json());
      const created = await m.integrations.putDefinition(id, file, content, actor);
      const d = await m.integrations.getDefinition(id, file);
      sendJson(ctx.res, created ? 201 : 200, { file: d.file, bytes: d.bytes, updatedAt: new Date(d.updatedAt).toISOString(), updatedBy: d.updatedBy });
    }),
    implement(api.deleteDefinition, binding, async (ctx) => {
      await m.integrations.deleteDefinition(integrationId(ctx.params.id), ctx.params.file, actorOf(ctx.req.headers['x-flow-actor']));
      sendEmpty(ctx.res, 204);
    }),

    implement(api.downloadBundle, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      sendBytes(ctx.res, 200, await m.bundle(id), { 'content-type': 'application/x-tar', 'content-disposition': `attachment; filename="${id}.tar"` });
    }),
    implement(api.uploadBundle, binding, async (ctx) => {
      const id = integrationId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const archive = await ctx.bytes();
      await m.uploadBundle(id, archive, actor);
      sendJson(ctx.res, 200, integrationView(await m.integrations.require(id)));
    }, { maxBytes: MAX_BUNDLE_BYTES, refuse: (max) => tooLarge('body_too_large', `the bundle is larger than ${max} bytes; split large files out of the integration`) }),
  ];
}
