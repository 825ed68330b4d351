import type { Static } from '@sinclair/typebox';
import * as api from '../../../shared/platform-api/deployments.ts';
import { implement } from '../http/contract-route.ts';
import { sendEmpty, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { Binding } from '../store/deployment-store.ts';
import type { Management } from './management.ts';
import { actorOf, checkId, checkSecretName } from './names.ts';
import { deploymentView } from './views.ts';

const binding = { capability: 'management', enabled: true };

/** Deployments: a tag with its bindings (spec 2 §4.3); PUT deploys or rolls out. */
export function deploymentRoutes(m: Management): Route[] {
  const deploymentId = (raw: string): string => checkId(raw, 'the deployment id', 'orders-api-prod');
  return [
    implement(api.listDeployments, binding, async (ctx) => {
      sendJson(ctx.res, 200, { deployments: (await m.deployments.list()).map(deploymentView) });
    }),
    implement(api.getDeployment, binding, async (ctx) => {
      sendJson(ctx.res, 200, deploymentView(await m.deployments.get(deploymentId(ctx.params.id))));
    }),
    implement(api.deploy, binding, async (ctx) => {
      const id = deploymentId(ctx.params.id);
      const actor = actorOf(ctx.req.headers['x-flow-actor']);
      const { integration, tag, bindings } = await ctx.json();
      const created = await m.deployments.deploy(id, { integration, tag, bindings: bindingsOf(bindings) }, actor);
      sendJson(ctx.res, created ? 201 : 200, deploymentView(await m.deployments.get(id)));
    }),
    implement(api.deleteDeployment, binding, async (ctx) => {
      await m.deployments.delete(deploymentId(ctx.params.id));
      sendEmpty(ctx.res, 204);
    }),
  ];
}

type RequestBindings = Static<typeof api.DeployRequest>['bindings'];

/**
 * The checked `bindings` as stored: a bare string is a literal, "" or null an empty binding
 * (it injects nothing). A secret's name keeps its own rule and code (invalid_secret_name).
 */
function bindingsOf(bindings: RequestBindings): Record<string, Binding> {
  const out: Record<string, Binding> = {};
  for (const [name, b] of Object.entries(bindings ?? {})) {
    if (b === null || typeof b === 'string') out[name] = { value: b ?? '' };
    else if ('secret' in b) out[name] = { secret: checkSecretName(b.secret) };
    else out[name] = { value: b.value };
  }
  return out;
}
