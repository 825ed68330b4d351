import { defineBlock } from '../../../core/component.ts';
import { HTTP_CLIENT } from '../http-client.def.ts';

export const STANDARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const restDynamicDef = defineBlock({
  type: 'rest-dynamic',
  summary: 'Sends an HTTP request whose method, path, query, headers and body are all computed per message.',
  description:
    'Before any request is made (a refusal makes no request): the method is upper-cased and must be allowed; the path must be a relative reference (a full URL or `//host` is refused); ' +
    'the path may not contain a `..` segment, percent-encoded forms included (a `..` inside a query value is fine); and it must lie under `pathPrefix`, matched on segment boundaries. ' +
    'Query and header values are sent as strings verbatim and anything else as compact JSON; a null value leaves the entry out. The response is folded into the message as by `rest`.',
  settings: {
    connector: { type: 'string', required: true, connectorType: HTTP_CLIENT, description: 'Name of the http-client connector.' },
    method: { type: 'cel', required: true, description: 'HTTP method; upper-cased, one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.', example: 'vars.method' },
    path: { type: 'cel', required: true, description: 'Path relative to the connector’s base URL; may carry a query string.', example: '"/orders/" + vars.id' },
    query: { type: 'cel', description: 'A whole map of query parameters.', example: 'vars.query' },
    headers: { type: 'cel', description: 'A whole map of request headers; `Authorization` is allowed.', example: '{"Authorization": vars.Authorization}' },
    body: { type: 'cel', description: 'Request body, as in rest.', example: 'body' },
    bodyType: { type: 'string', enum: ['raw', 'multipart'], default: 'raw', description: 'As in rest.' },
    allowMethods: {
      type: 'list',
      description: 'Methods the block may issue; empty allows the standard set.',
      items: { type: 'string', enum: STANDARD_METHODS, description: 'An HTTP method.' },
      example: ['GET', 'POST'],
    },
    pathPrefix: {
      type: 'string',
      description: 'Allowed path prefix, matched on segment boundaries (`/api` allows `/api` and `/api/x`, not `/apiary`); empty allows the whole base URL.',
      example: '/api',
    },
    failOnError: { type: 'boolean', default: true, description: 'A 400+ response status fails the flow with status 502 in `vars.error.status` (the response status is in statusVar); when false the status only goes to statusVar.' },
    statusVar: { type: 'string', default: 'statusCode', description: 'Variable receiving the response status.' },
  },
  example: `- rest-dynamic:
    connector: backend
    method: vars.method
    path: '"/" + vars.rest'
    query: vars.query
    body: body
    allowMethods: [GET, POST]
    pathPrefix: /api`,
});
