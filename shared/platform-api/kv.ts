import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { key, namespace, objectVersion } from './parameters.ts';
import { Conflict, NotFound, ObjectVersionHeader, TooLarge } from './common.ts';

export const KvWritten = component(
  'KvWritten',
  Type.Object({
    version: Type.Integer({
      description: 'Same as the X-Object-Version response header.',
      minimum: 1,
    }),
  }),
);

export const kvGet = defineRoute({
  operationId: 'kvGet',
  method: 'GET',
  path: '/v1/kv/{namespace}/entry',
  tag: 'kv',
  summary: 'Read an entry',
  parameters: [namespace, key],
  responses: {
    200: {
      description: 'The value, byte for byte.',
      content: {
        'application/octet-stream': Type.String({ format: 'binary' }),
      },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
    404: NotFound,
  },
});

export const kvPut = defineRoute({
  operationId: 'kvPut',
  method: 'PUT',
  path: '/v1/kv/{namespace}/entry',
  tag: 'kv',
  summary: 'Write an entry',
  description: '§3.5 version rules. 201 when the entry was created, 200 when replaced (read the same).',
  parameters: [namespace, key, objectVersion],
  body: {
    required: true,
    content: {
      'application/octet-stream': Type.String({ format: 'binary' }),
      '*/*': Type.String({ format: 'binary' }),
    },
  },
  responses: {
    200: {
      description: 'Replaced.',
      content: { 'application/json': KvWritten },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
    201: {
      description: 'Created.',
      content: { 'application/json': KvWritten },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
    409: Conflict,
    413: TooLarge,
  },
});

export const kvDelete = defineRoute({
  operationId: 'kvDelete',
  method: 'DELETE',
  path: '/v1/kv/{namespace}/entry',
  tag: 'kv',
  summary: 'Delete an entry',
  description: '404 when already absent (read as success).',
  parameters: [namespace, key, objectVersion],
  responses: { 204: { description: 'Deleted.' }, 404: NotFound, 409: Conflict },
});

export const kvRoutes = [kvGet, kvPut, kvDelete] as const;
