import { badRequest } from '../http/api-error.ts';
import { readJsonObject, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { Management } from './management.ts';
import { actorOf, checkSecretName } from './names.ts';
import { secretView } from './views.ts';

export const MAX_SECRET_VALUE_BYTES = 256 * 1024;

/**
 * Cluster secrets (spec 2 §4.2). A value goes in and never comes out: the list has names and
 * timestamps, and no answer or error quotes a value.
 */
export function secretRoutes(m: Management): Route[] {
  const route = (method: Route['method'], path: string, handle: Route['handle']): Route => ({ method, path, capability: 'management', enabled: true, handle });
  return [
    route('PUT', '/secrets/{name}', async (ctx) => {
      const name = checkSecretName(ctx.params.name);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const body = await readJsonObject(ctx.req, MAX_SECRET_VALUE_BYTES * 2);
      const value = body.value;
      if (typeof value !== 'string' || value === '') {
        throw badRequest('missing_field', 'the request body needs "value": the secret as a non-empty string, e.g. {"value": "…"}');
      }
      if (Buffer.byteLength(value) > MAX_SECRET_VALUE_BYTES) throw badRequest('invalid_field', `"value" is longer than ${MAX_SECRET_VALUE_BYTES} bytes`);
      const created = await m.secrets.put(name, value, actor);
      sendJson(ctx.res, created ? 201 : 200, secretView((await m.secrets.get(name))!, await m.deployments.usersOfSecret(name)));
    }),
    route('GET', '/secrets', async (ctx) => {
      const secrets = await m.secrets.list();
      sendJson(ctx.res, 200, { secrets: await Promise.all(secrets.map(async (s) => secretView(s, await m.deployments.usersOfSecret(s.name)))) });
    }),
    route('DELETE', '/secrets/{name}', async (ctx) => {
      const name = checkSecretName(ctx.params.name);
      const force = ctx.query.get('force');
      if (force !== null && force !== 'true' && force !== 'false') {
        throw badRequest('invalid_parameter', `the query parameter "force" is true or false, got "${force.slice(0, 20)}"`);
      }
      const broken = await m.deleteSecret(name, force === 'true');
      sendJson(ctx.res, 200, { deleted: name, brokenDeployments: broken });
    }),
  ];
}
