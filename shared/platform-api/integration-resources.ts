import { Type } from '@sinclair/typebox';
import { StringEnum, component } from './contract.ts';
import { defineRoute } from './route.ts';
import { actor, integrationId, objectVersion, resourceId } from './parameters.ts';
import { Conflict, NotFound, ObjectVersionHeader, TooLarge } from './common.ts';

export const Resource = component(
  'Resource',
  Type.Object({
    id: Type.String({ example: 'res_Qm9vb2tz' }),
    integration: Type.String(),
    kind: StringEnum(['env', 'template']),
    name: Type.String({ example: 'emails/welcome.txt' }),
    bytes: Type.Integer(),
    version: Type.Integer({
      description: '1 on create; every update adds one.',
      minimum: 1,
    }),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
  }),
);

export const ResourceWithContent = component(
  'ResourceWithContent',
  Type.Intersect([
    Resource,
    Type.Object({
      content: Type.String({
        description: 'The text; with encoding base64, the bytes in base64.',
      }),
      encoding: StringEnum(['utf8', 'base64'], { default: 'utf8' }),
    }),
  ]),
);

export const ResourceList = component('ResourceList', Type.Object({ resources: Type.Array(Resource) }));

export const ResourceCreate = component(
  'ResourceCreate',
  Type.Object({
    kind: StringEnum(['env', 'template']),
    name: Type.String({
      description: 'Relative and path-like: no leading /, no . or .. segment, no empty segment, unique in the integration, not a root-level *.yaml / *.yml.',
    }),
    content: Type.String({
      description: 'The text; with encoding base64, the bytes in base64.',
    }),
    encoding: Type.Optional(StringEnum(['utf8', 'base64'], { default: 'utf8' })),
  }),
);

export const ResourceUpdate = component(
  'ResourceUpdate',
  Type.Object({
    kind: Type.Optional(StringEnum(['env', 'template'])),
    name: Type.Optional(Type.String()),
    content: Type.Optional(
      Type.String({
        description: 'The text; with encoding base64, the bytes in base64.',
      }),
    ),
    encoding: Type.Optional(StringEnum(['utf8', 'base64'], { default: 'utf8' })),
  }),
);

export const createResource = defineRoute({
  operationId: 'createResource',
  method: 'POST',
  path: '/integrations/{id}/resources',
  tag: 'integrationResources',
  summary: 'Create a resource',
  description:
    'Spec 2 §4.2. The name is checked against each rule of §2.11, every broken rule with its own 400 code: resource_name_empty, resource_name_too_long (512), resource_name_invalid_character (control characters, backslash), resource_name_absolute (leading /), resource_name_dot_segment (a . or .. segment), resource_name_empty_segment (// or a trailing /), resource_name_root_yaml (a root-level *.yaml / *.yml, where definitions live), resource_name_duplicate (unique per integration, across both kinds). Creates the integration when new. The new resource goes last in declared order.',
  parameters: [integrationId, actor],
  body: { required: true, content: { 'application/json': ResourceCreate } },
  responses: {
    201: {
      description: 'Created.',
      content: { 'application/json': Resource },
      headers: {
        Location: {
          description: '/integrations/{id}/resources/{resourceId}',
          schema: Type.String(),
        },
      },
    },
    413: TooLarge,
  },
});

export const listResources = defineRoute({
  operationId: 'listResources',
  method: 'GET',
  path: '/integrations/{id}/resources',
  tag: 'integrationResources',
  summary: 'List resources',
  description: 'In declared order (the order env resources are folded in), without content.',
  parameters: [integrationId],
  responses: {
    200: {
      description: 'The resources.',
      content: { 'application/json': ResourceList },
    },
    404: NotFound,
  },
});

export const getIntegrationResource = defineRoute({
  operationId: 'getIntegrationResource',
  method: 'GET',
  path: '/integrations/{id}/resources/{resourceId}',
  tag: 'integrationResources',
  summary: 'Read one resource',
  description: 'With its content: as text when it is UTF-8 (`encoding: utf8`), else as base64.',
  parameters: [integrationId, resourceId],
  responses: {
    200: {
      description: 'The resource.',
      content: { 'application/json': ResourceWithContent },
    },
    404: NotFound,
  },
});

export const updateResource = defineRoute({
  operationId: 'updateResource',
  method: 'PUT',
  path: '/integrations/{id}/resources/{resourceId}',
  tag: 'integrationResources',
  summary: 'Update one resource',
  description:
    "Any of kind, name and content; a new name is checked like on create. X-Object-Version: absent or 0 writes unconditionally, a positive value must equal the resource's version (else 409 version_conflict). Tags already made are never touched.",
  parameters: [integrationId, resourceId, actor, objectVersion],
  body: { required: true, content: { 'application/json': ResourceUpdate } },
  responses: {
    200: { description: 'Updated.', content: { 'application/json': Resource } },
    404: NotFound,
    409: Conflict,
    413: TooLarge,
  },
});

export const deleteResource = defineRoute({
  operationId: 'deleteResource',
  method: 'DELETE',
  path: '/integrations/{id}/resources/{resourceId}',
  tag: 'integrationResources',
  summary: 'Delete one resource',
  description: 'Tags already made keep their frozen copy.',
  parameters: [integrationId, resourceId, actor],
  responses: { 204: { description: 'Deleted.' }, 404: NotFound },
});

export const downloadResource = defineRoute({
  operationId: 'downloadResource',
  method: 'GET',
  path: '/integrations/{id}/resources/{resourceId}/content',
  tag: 'integrationResources',
  summary: 'Download one resource',
  description: 'Its bytes exactly as stored, as an attachment named after the last segment of its name.',
  parameters: [integrationId, resourceId],
  responses: {
    200: {
      description: 'The bytes.',
      content: {
        'text/plain': Type.String(),
        'application/octet-stream': Type.String({ format: 'binary' }),
      },
      headers: {
        'X-Object-Version': ObjectVersionHeader,
        'Content-Disposition': { schema: Type.String() },
      },
    },
    404: NotFound,
  },
});

export const integrationResourcesRoutes = [createResource, listResources, getIntegrationResource, updateResource, deleteResource, downloadResource] as const;
