import { Type } from '@sinclair/typebox';
import { StringEnum, component } from './contract.ts';
import { defineRoute } from './route.ts';
import { actor, integrationId, kind, resourceName, snapshotId, tagName } from './parameters.ts';
import { Conflict, NotFound, NotImplemented, segmentId } from './common.ts';

export const DeclaredVariable = component(
  'DeclaredVariable',
  Type.Object({
    name: Type.String(),
    description: Type.Optional(Type.String()),
    required: Type.Boolean(),
    secret: Type.Boolean(),
    default: Type.Optional(Type.String()),
    declaredIn: Type.String({
      description: 'The definition file that declares it.',
    }),
    satisfiedBy: Type.Array(Type.String(), {
      description: 'Frozen env resources that give it a non-empty value, in declared order.',
    }),
  }),
);

export const TagCreate = component(
  'TagCreate',
  Type.Object({
    tag: segmentId('v1.0.0'),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  }),
);

export const Tag = component(
  'Tag',
  Type.Object({
    snapshotId: Type.String({ example: 'snap_x1Yz' }),
    integration: Type.String(),
    tag: Type.String(),
    description: Type.Optional(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    definitions: Type.Array(
      Type.Object({
        file: Type.Optional(Type.String()),
        bytes: Type.Optional(Type.Integer()),
      }),
    ),
    resources: Type.Array(
      Type.Object({
        kind: Type.Optional(StringEnum(['env', 'template'])),
        name: Type.Optional(Type.String()),
        bytes: Type.Optional(Type.Integer()),
      }),
      { description: 'In declared order.' },
    ),
    variables: Type.Array(DeclaredVariable),
  }),
);

export const TagList = component('TagList', Type.Object({ tags: Type.Array(Tag) }));

export const createTag = defineRoute({
  operationId: 'createTag',
  method: 'POST',
  path: '/integrations/{id}/tags',
  tag: 'versionTags',
  summary: 'Create a version tag',
  description:
    "Spec 2 §3.2, §9: freezes every definition file and every resource of the working copy, in one SQLite transaction, under a new snapshot id. Later edits of the working copy never reach it, and a tag never changes (the same name again is 409 tag_exists). Refused with 400 no_definitions when there is no definition file, invalid_definition (file:line:col) when a definition is not YAML, invalid_env_resource (name and line) when an env resource is not a .env file: such a tag could never start. The answer lists the declared variables (from the definitions' env:) and marks which frozen env resources satisfy each.",
  parameters: [integrationId, actor],
  body: { required: true, content: { 'application/json': TagCreate } },
  responses: {
    201: {
      description: 'The tag and its snapshot.',
      content: { 'application/json': Tag },
    },
    404: NotFound,
    409: Conflict,
  },
});

export const listTags = defineRoute({
  operationId: 'listTags',
  method: 'GET',
  path: '/integrations/{id}/tags',
  tag: 'versionTags',
  summary: 'List version tags',
  description: 'In the order they were made.',
  parameters: [integrationId],
  responses: {
    200: { description: 'The tags.', content: { 'application/json': TagList } },
    404: NotFound,
  },
});

export const getTag = defineRoute({
  operationId: 'getTag',
  method: 'GET',
  path: '/integrations/{id}/tags/{tag}',
  tag: 'versionTags',
  summary: 'Read a version tag',
  description: 'What the deploy dialog shows: the declared variables and which are already satisfied by frozen env resources.',
  parameters: [integrationId, tagName],
  responses: {
    200: { description: 'The tag.', content: { 'application/json': Tag } },
    404: NotFound,
  },
});

export const getSnapshot = defineRoute({
  operationId: 'getSnapshot',
  method: 'GET',
  path: '/snapshots/{id}',
  tag: 'versionTags',
  summary: 'Read a snapshot',
  description: 'The tag a snapshot id (FLOW_SNAPSHOT_ID) belongs to, with its frozen files and declared variables.',
  parameters: [snapshotId],
  responses: {
    200: { description: 'The snapshot.', content: { 'application/json': Tag } },
    404: NotFound,
  },
});

export const downloadSnapshotBundle = defineRoute({
  operationId: 'downloadSnapshotBundle',
  method: 'GET',
  path: '/snapshots/{id}/bundle',
  tag: 'versionTags',
  summary: 'Download a snapshot as a bundle',
  description: 'The frozen copy, laid out like GET /integrations/{id}/bundle.',
  parameters: [snapshotId],
  responses: {
    200: {
      description: 'The tar.',
      content: { 'application/x-tar': Type.String({ format: 'binary' }) },
    },
    404: NotFound,
  },
});

export const getSnapshotResource = defineRoute({
  operationId: 'getSnapshotResource',
  method: 'GET',
  path: '/snapshots/{id}/resources/content',
  tag: 'versionTags',
  summary: 'Read a frozen resource',
  description:
    'Spec 2 §4.2: what a deployed runtime carrying FLOW_SNAPSHOT_ID reads instead of /v1/resources/content, with the same query parameters (kind, name) and answers: 200 bytes, 404 resource_not_found for a missing resource (not an error), 404 snapshot_not_found for an unknown snapshot (the runtime fails loudly on that one). Part of the resources capability: switched off, it answers 501.',
  parameters: [snapshotId, kind, resourceName],
  responses: {
    200: {
      description: 'The content.',
      content: {
        'text/plain': Type.String(),
        'application/octet-stream': Type.String({ format: 'binary' }),
      },
    },
    404: NotFound,
    501: NotImplemented,
  },
});

export const versionTagsRoutes = [createTag, listTags, getTag, getSnapshot, downloadSnapshotBundle, getSnapshotResource] as const;
