import { MAX_JSON_BODY_BYTES } from '../delegation/platform-context.ts';
import { badRequest } from '../http/api-error.ts';
import { describeJson, readJsonObject, sendEmpty, sendJson } from '../http/http-io.ts';
import { requiredString, type JsonObject } from '../http/request-fields.ts';
import type { Route } from '../http/router.ts';
import type { Binding } from './deployment-store.ts';
import type { Management } from './management.ts';
import { actorOf, checkId, checkSecretName } from './names.ts';
import { deploymentView } from './views.ts';

/** Deployments: a tag with its bindings (spec 2 §4.3); PUT deploys or rolls out. */
export function deploymentRoutes(m: Management): Route[] {
  const route = (method: Route['method'], path: string, handle: Route['handle']): Route => ({ method, path, capability: 'management', enabled: true, handle });
  const deploymentId = (raw: string): string => checkId(raw, 'the deployment id', 'orders-api-prod');
  return [
    route('GET', '/deployments', async (ctx) => {
      sendJson(ctx.res, 200, { deployments: (await m.deployments.list()).map(deploymentView) });
    }),
    route('GET', '/deployments/{id}', async (ctx) => {
      sendJson(ctx.res, 200, deploymentView(await m.deployments.get(deploymentId(ctx.params.id))));
    }),
    route('PUT', '/deployments/{id}', async (ctx) => {
      const id = deploymentId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const body = await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES);
      const integration = checkId(requiredString(body, 'integration', 200), 'the integration id', 'orders-api');
      const tag = checkId(requiredString(body, 'tag', 200), 'the tag', 'v1.0.0');
      const created = await m.deployments.deploy(id, { integration, tag, bindings: bindingsOf(body) }, actor);
      sendJson(ctx.res, created ? 201 : 200, deploymentView(await m.deployments.get(id)));
    }),
    route('DELETE', '/deployments/{id}', async (ctx) => {
      await m.deployments.delete(deploymentId(ctx.params.id));
      sendEmpty(ctx.res, 204);
    }),
  ];
}

/**
 * `bindings`: variable → `{"value": "…"}` (a literal; a bare string means the same) or
 * `{"secret": "<name>"}`. An empty literal (or null) is an empty binding: it injects nothing.
 */
function bindingsOf(body: JsonObject): Record<string, Binding> {
  const raw = body.bindings;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('invalid_field', `"bindings" must be an object of variable names, got ${describeJson(raw)}`);
  const out: Record<string, Binding> = {};
  for (const [name, b] of Object.entries(raw as JsonObject)) {
    if (b === null || b === '') out[name] = { value: '' };
    else if (typeof b === 'string') out[name] = { value: b };
    else if (typeof b === 'object' && !Array.isArray(b) && Object.keys(b).length === 1 && typeof (b as JsonObject).value === 'string') {
      out[name] = { value: (b as { value: string }).value };
    } else if (typeof b === 'object' && !Array.isArray(b) && Object.keys(b).length === 1 && typeof (b as JsonObject).secret === 'string') {
      out[name] = { secret: checkSecretName((b as { secret: string }).secret) };
    } else {
      throw badRequest('invalid_binding', `bindings.${name} must be {"value": "<literal>"} or {"secret": "<secret name>"} (or "" to leave it empty)`);
    }
  }
  return out;
}
