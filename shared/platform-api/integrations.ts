import { Type } from '@sinclair/typebox';
import { StringEnum, component } from './contract.ts';
import { defineRoute } from './route.ts';
import { actor, definitionFile, integrationId } from './parameters.ts';
import { NotFound, TooLarge } from './common.ts';

export const Integration = component(
  'Integration',
  Type.Object({
    id: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
    definitions: Type.Integer(),
    resources: Type.Integer(),
    tags: Type.Integer(),
  }),
);

export const IntegrationList = component('IntegrationList', Type.Object({ integrations: Type.Array(Integration) }));

export const ContentWrite = component(
  'ContentWrite',
  Type.Object({
    content: Type.String({
      description: 'The text; with encoding base64, the bytes in base64.',
    }),
    encoding: Type.Optional(StringEnum(['utf8', 'base64'], { default: 'utf8' })),
  }),
);

export const Definition = component(
  'Definition',
  Type.Object({
    file: Type.String(),
    bytes: Type.Integer(),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
  }),
);

export const DefinitionWithContent = component(
  'DefinitionWithContent',
  Type.Intersect([
    Definition,
    Type.Object({
      content: Type.String({
        description: 'The text; with encoding base64, the bytes in base64.',
      }),
      encoding: StringEnum(['utf8', 'base64'], { default: 'utf8' }),
    }),
  ]),
);

export const DefinitionList = component('DefinitionList', Type.Object({ definitions: Type.Array(Definition) }));

export const listIntegrations = defineRoute({
  operationId: 'listIntegrations',
  method: 'GET',
  path: '/integrations',
  tag: 'integrations',
  summary: 'List integrations',
  description: 'Every integration the platform holds a working copy of, by id.',
  parameters: [],
  responses: {
    200: {
      description: 'The integrations.',
      content: { 'application/json': IntegrationList },
    },
  },
});

export const getIntegration = defineRoute({
  operationId: 'getIntegration',
  method: 'GET',
  path: '/integrations/{id}',
  tag: 'integrations',
  summary: 'Read an integration',
  description: 'Counts of its definitions, resources and tags, and who wrote it last.',
  parameters: [integrationId],
  responses: {
    200: {
      description: 'The integration.',
      content: { 'application/json': Integration },
    },
    404: NotFound,
  },
});

export const createIntegration = defineRoute({
  operationId: 'createIntegration',
  method: 'PUT',
  path: '/integrations/{id}',
  tag: 'integrations',
  summary: 'Create an integration',
  description:
    'Idempotent: 201 when created, 200 when it already existed (nothing changes). Writing a resource, a definition or a bundle also creates the integration.',
  parameters: [integrationId, actor],
  responses: {
    200: {
      description: 'It already existed.',
      content: { 'application/json': Integration },
    },
    201: {
      description: 'Created.',
      content: { 'application/json': Integration },
    },
  },
});

export const listDefinitions = defineRoute({
  operationId: 'listDefinitions',
  method: 'GET',
  path: '/integrations/{id}/definitions',
  tag: 'integrations',
  summary: 'List definition files',
  description: 'Root-level *.yaml / *.yml files, by name, without content.',
  parameters: [integrationId],
  responses: {
    200: {
      description: 'The files.',
      content: { 'application/json': DefinitionList },
    },
    404: NotFound,
  },
});

export const getDefinition = defineRoute({
  operationId: 'getDefinition',
  method: 'GET',
  path: '/integrations/{id}/definitions/{file}',
  tag: 'integrations',
  summary: 'Read a definition file',
  parameters: [integrationId, definitionFile],
  responses: {
    200: {
      description: 'The file with its content.',
      content: { 'application/json': DefinitionWithContent },
    },
    404: NotFound,
  },
});

export const putDefinition = defineRoute({
  operationId: 'putDefinition',
  method: 'PUT',
  path: '/integrations/{id}/definitions/{file}',
  tag: 'integrations',
  summary: 'Write a definition file',
  description:
    'Creates (201) or replaces (200) a root-level YAML file. The platform does not validate flows (the runtime does); tagging reads its `env:` declarations.',
  parameters: [integrationId, definitionFile, actor],
  body: { required: true, content: { 'application/json': ContentWrite } },
  responses: {
    200: {
      description: 'Replaced.',
      content: { 'application/json': Definition },
    },
    201: {
      description: 'Created.',
      content: { 'application/json': Definition },
    },
    413: TooLarge,
  },
});

export const deleteDefinition = defineRoute({
  operationId: 'deleteDefinition',
  method: 'DELETE',
  path: '/integrations/{id}/definitions/{file}',
  tag: 'integrations',
  summary: 'Delete a definition file',
  parameters: [integrationId, definitionFile, actor],
  responses: { 204: { description: 'Deleted.' }, 404: NotFound },
});

export const downloadBundle = defineRoute({
  operationId: 'downloadBundle',
  method: 'GET',
  path: '/integrations/{id}/bundle',
  tag: 'integrations',
  summary: 'Download an integration as a bundle',
  description:
    "A POSIX tar (ustar; PAX records for long paths) laid out like the integration folder of a workspace: definitions at the root, env resources under `env/<name>`, template resources under `template/<name>`. Resources come in declared order; file modes 0644, modification time = the integration's last write.",
  parameters: [integrationId],
  responses: {
    200: {
      description: 'The tar.',
      content: { 'application/x-tar': Type.String({ format: 'binary' }) },
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="<id>.tar"',
          schema: Type.String(),
        },
      },
    },
    404: NotFound,
  },
});

export const uploadBundle = defineRoute({
  operationId: 'uploadBundle',
  method: 'PUT',
  path: '/integrations/{id}/bundle',
  tag: 'integrations',
  summary: 'Upload a bundle',
  description:
    "Replaces the whole working copy (definitions and resources) with the archive's files in one transaction, creating the integration when new. The archive's order of resources becomes the declared order; a resource whose name survives keeps its id (its version moves on only when kind or content changed). A `./` prefix and directory entries are ignored; links, devices and files outside the root, `env/` and `template/` are refused with 400 invalid_bundle, and each resource name is checked with the rules of POST /integrations/{id}/resources. Up to 64 MiB. Download then upload round-trips every file byte for byte.",
  parameters: [integrationId, actor],
  body: {
    required: true,
    content: { 'application/x-tar': Type.String({ format: 'binary' }) },
  },
  responses: {
    200: {
      description: 'The integration after the upload.',
      content: { 'application/json': Integration },
    },
    413: TooLarge,
  },
});

export const integrationsRoutes = [
  listIntegrations,
  getIntegration,
  createIntegration,
  listDefinitions,
  getDefinition,
  putDefinition,
  deleteDefinition,
  downloadBundle,
  uploadBundle,
] as const;
