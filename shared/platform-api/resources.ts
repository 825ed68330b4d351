import { Type } from '@sinclair/typebox';
import { kind, resourceName } from './parameters.ts';
import { NotFound } from './common.ts';
import { defineRoute } from './route.ts';

export const getResource = defineRoute({
  operationId: 'getResource',
  method: 'GET',
  path: '/v1/resources/content',
  tag: 'resources',
  summary: 'Read a resource',
  description: 'Env and template resources, written by the management side (or loaded from a seed directory laid out as env/** and template/**).',
  parameters: [kind, resourceName],
  responses: {
    200: {
      description: 'The content.',
      content: {
        'text/plain': Type.String(),
        'application/octet-stream': Type.String({ format: 'binary' }),
      },
    },
    404: NotFound,
  },
});

export const resourcesRoutes = [getResource] as const;
