import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { actor, force, secretName } from './parameters.ts';
import { Conflict, NotFound, TooLarge, Unavailable } from './common.ts';

export const SecretWrite = component(
  'SecretWrite',
  Type.Object({
    value: Type.String({
      description: 'Up to 256 KiB. Never returned by any route, nor repeated in an error.',
      minLength: 1,
      writeOnly: true,
    }),
  }),
);

export const SecretUse = component('SecretUse', Type.Object({ deployment: Type.String(), variable: Type.String() }));

export const Secret = component(
  'Secret',
  Type.Object({
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
    usedBy: Type.Array(SecretUse),
  }),
);

export const SecretList = component('SecretList', Type.Object({ secrets: Type.Array(Secret) }));

export const SecretDeleted = component(
  'SecretDeleted',
  Type.Object({
    deleted: Type.String(),
    brokenDeployments: Type.Array(SecretUse, {
      description: 'Bindings a forced delete broke; empty otherwise.',
    }),
  }),
);

export const listSecrets = defineRoute({
  operationId: 'listSecrets',
  method: 'GET',
  path: '/secrets',
  tag: 'clusterSecrets',
  summary: 'List cluster secret names',
  description: 'Names and timestamps, and the deployment bindings that use each; never a value.',
  parameters: [],
  responses: {
    200: {
      description: 'The secrets.',
      content: { 'application/json': SecretList },
    },
  },
});

export const putSecret = defineRoute({
  operationId: 'putSecret',
  method: 'PUT',
  path: '/secrets/{name}',
  tag: 'clusterSecrets',
  summary: 'Create or overwrite a cluster secret',
  description:
    '201 when created, 200 when overwritten. The value is stored only in the secret store: one AES-256-GCM sealed object `flow-secrets` in the data directory, whose key is kept outside the database (headless: a 0600 key file `flow-secrets.key`; in the desktop app: sealed by Electron safeStorage, refusing the basic_text backend unless the user opted in). The database keeps the name and timestamps. No answer, log or error quotes the value. 503 secret_store_unavailable when the key cannot be loaded (no keyring, a refused backend, a key that does not open the store).',
  parameters: [secretName, actor],
  body: { required: true, content: { 'application/json': SecretWrite } },
  responses: {
    200: {
      description: 'Overwritten.',
      content: { 'application/json': Secret },
    },
    201: { description: 'Created.', content: { 'application/json': Secret } },
    413: TooLarge,
    503: Unavailable,
  },
});

export const deleteSecret = defineRoute({
  operationId: 'deleteSecret',
  method: 'DELETE',
  path: '/secrets/{name}',
  tag: 'clusterSecrets',
  summary: 'Delete a cluster secret',
  description:
    'Refused with 409 secret_in_use, naming each deployment and variable that binds it, unless forced with `?force=true`. A forced delete answers which bindings it broke: those deployments then fail to start, naming the missing secret.',
  parameters: [secretName, force],
  responses: {
    200: {
      description: 'Deleted.',
      content: { 'application/json': SecretDeleted },
    },
    404: NotFound,
    409: Conflict,
    503: Unavailable,
  },
});

export const secretsRoutes = [listSecrets, putSecret, deleteSecret] as const;
