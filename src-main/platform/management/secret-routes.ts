import * as api from '../../../shared/platform-api/secrets.ts';
import { badRequest } from '../http/api-error.ts';
import { implement } from '../http/contract-route.ts';
import { sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { Management } from './management.ts';
import { actorOf, checkSecretName } from './names.ts';
import { secretView } from './views.ts';

export const MAX_SECRET_VALUE_BYTES = 256 * 1024;

const binding = { capability: 'management', enabled: true };

/**
 * Cluster secrets (spec 2 §4.2). A value goes in and never comes out: the list has names and
 * timestamps, and no answer or error quotes a value (SecretWrite's value is `writeOnly`).
 */
export function secretRoutes(m: Management): Route[] {
  return [
    implement(api.putSecret, binding, async (ctx) => {
      const name = checkSecretName(ctx.params.name);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const { value } = await ctx.json();
      // A limit in bytes, which a JSON Schema cannot say (its maxLength counts characters).
      if (Buffer.byteLength(value) > MAX_SECRET_VALUE_BYTES) throw badRequest('invalid_field', `"value" is longer than ${MAX_SECRET_VALUE_BYTES} bytes`);
      const created = await m.secrets.put(name, value, actor);
      sendJson(ctx.res, created ? 201 : 200, secretView((await m.secrets.get(name))!, await m.deployments.usersOfSecret(name)));
      // JSON escapes may double a value's bytes.
    }, { maxBytes: MAX_SECRET_VALUE_BYTES * 2 }),
    implement(api.listSecrets, binding, async (ctx) => {
      const secrets = await m.secrets.list();
      sendJson(ctx.res, 200, { secrets: await Promise.all(secrets.map(async (s) => secretView(s, await m.deployments.usersOfSecret(s.name)))) });
    }),
    implement(api.deleteSecret, binding, async (ctx) => {
      const name = checkSecretName(ctx.params.name);
      const broken = await m.deleteSecret(name, ctx.input.force === 'true');
      sendJson(ctx.res, 200, { deleted: name, brokenDeployments: broken });
    }),
  ];
}
