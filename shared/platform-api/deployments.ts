import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { actor, deploymentId } from './parameters.ts';
import { NotFound, segmentId } from './common.ts';

export const Binding = component(
  'Binding',
  Type.Union([
    Type.Object(
      {
        value: Type.String({
          description: 'A literal; empty injects nothing.',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        secret: Type.String({
          description: 'A cluster secret name; its value is injected when the deployment starts.',
        }),
      },
      { additionalProperties: false },
    ),
  ]),
);

export const DeployRequest = component(
  'DeployRequest',
  Type.Object({
    integration: segmentId('orders-api'),
    tag: segmentId('v1.0.0'),
    bindings: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Union([Binding, Type.String(), Type.Null()], {
          description: '{"value": "<literal>"} or {"secret": "<secret name>"} (or "" or null to leave it empty)',
          'x-error-code': 'invalid_binding',
        }),
        {
          description: 'Declared variable → binding. A bare string is a literal; "" or null is an empty binding.',
        },
      ),
    ),
  }),
);

export const Deployment = component(
  'Deployment',
  Type.Object({
    id: Type.String(),
    integration: Type.String(),
    tag: Type.String(),
    snapshotId: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    bindings: Type.Record(Type.String(), Binding),
  }),
);

export const DeploymentList = component('DeploymentList', Type.Object({ deployments: Type.Array(Deployment) }));

export const listDeployments = defineRoute({
  operationId: 'listDeployments',
  method: 'GET',
  path: '/deployments',
  tag: 'deployments',
  summary: 'List deployments',
  description: 'By id.',
  parameters: [],
  responses: {
    200: {
      description: 'The deployments.',
      content: { 'application/json': DeploymentList },
    },
  },
});

export const getDeployment = defineRoute({
  operationId: 'getDeployment',
  method: 'GET',
  path: '/deployments/{id}',
  tag: 'deployments',
  summary: 'Read a deployment',
  description: "Secret bindings show the secret's name, never its value.",
  parameters: [deploymentId],
  responses: {
    200: {
      description: 'The deployment.',
      content: { 'application/json': Deployment },
    },
    404: NotFound,
  },
});

export const deploy = defineRoute({
  operationId: 'deploy',
  method: 'PUT',
  path: '/deployments/{id}',
  tag: 'deployments',
  summary: 'Deploy a tag (or roll out a new one)',
  description:
    "Spec 2 §4.3, §4.4. 201 for a new deployment, 200 for a rollout of an existing one. Validated up front, nothing stored on failure: 404 tag_not_found; 400 unknown_variable (a binding of a variable the tag does not declare); 400 invalid_binding; 400 unknown_secret (a binding to a secret that does not exist); 400 secret_needs_secret_binding (a `secret: true` variable bound to a non-empty literal: secrets are bound by name only, so no value is ever stored in a deployment record); 400 managed_variable (a binding of HTTP_PORT or HTTP_HOST, which the orchestrator sets in every pod, spec 2 §2.1; a definition that declares them required needs no binding); 400 required_variable_unbound naming every required variable with neither a non-empty binding nor a frozen env resource that sets it (a default does not satisfy it). Starting a deployment (in process, e.g. by the studio) gives its runtime: the bindings as its container environment (an empty binding injects nothing), FLOW_SNAPSHOT_ID, and FLOW_ENV_RESOURCES listing the tag's env resources in declared order, which the runtime folds beneath the container environment and above the declared defaults.",
  parameters: [deploymentId, actor],
  body: { required: true, content: { 'application/json': DeployRequest } },
  responses: {
    200: {
      description: 'Rolled out.',
      content: { 'application/json': Deployment },
    },
    201: {
      description: 'Deployed.',
      content: { 'application/json': Deployment },
    },
    404: NotFound,
  },
});

export const deleteDeployment = defineRoute({
  operationId: 'deleteDeployment',
  method: 'DELETE',
  path: '/deployments/{id}',
  tag: 'deployments',
  summary: 'Delete a deployment',
  description: 'Its secret bindings stop counting as references.',
  parameters: [deploymentId],
  responses: { 204: { description: 'Deleted.' }, 404: NotFound },
});

export const deploymentsRoutes = [listDeployments, getDeployment, deploy, deleteDeployment] as const;
