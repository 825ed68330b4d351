import { defineBlock } from '../../../core/component.ts';
import { HTTP_CLIENT } from '../http-client.def.ts';

export const restDef = defineBlock({
  type: 'rest',
  summary: 'Sends one HTTP request through an http-client connector and folds the response into the message.',
  description:
    'The response status goes to `statusVar`; a JSON response parses into `body`, anything else becomes raw content with the response Content-Type, and an empty response leaves `body` null. ' +
    'Query and header values that are not strings are sent as compact JSON; a null value leaves the entry out. ' +
    'A per-caller credential is sent by setting `Authorization` in `headers` (the whole header, scheme included); the connector never overwrites it.',
  settings: {
    connector: { type: 'string', required: true, connectorType: HTTP_CLIENT, description: 'Name of the http-client connector.' },
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'], default: 'GET', description: 'HTTP method.' },
    path: { type: 'string', description: 'Appended to the connector’s base URL.', example: '/orders' },
    query: {
      type: 'map',
      description: 'Query parameters, one expression each.',
      values: { type: 'cel', description: 'Value of the parameter.' },
      example: { status: 'vars.query.status', limit: '20' },
    },
    headers: {
      type: 'map',
      description: 'Request headers, one expression each; `Authorization` sends a per-request credential.',
      values: { type: 'cel', description: 'Value of the header.' },
      example: { 'X-Request-Id': 'correlationID' },
    },
    body: {
      type: 'cel',
      description:
        'Request body. A string is sent verbatim; raw content as its bytes with its Content-Type; null sends no body; anything else is JSON with `Content-Type: application/json` unless a header sets one. With bodyType multipart: a map of parts.',
      example: '{"customer": body.customer, "items": body.items}',
    },
    bodyType: {
      type: 'string',
      enum: ['raw', 'multipart'],
      default: 'raw',
      description:
        '`multipart` renders body as multipart/form-data with a generated boundary and its own Content-Type, overriding any in headers. Parts map: keys are part names; a scalar is a text field; an object may give `data`, `filename`, `contentType` and `encoding` (`text`, the default, or `base64`); a list repeats the name. An inbound `body.parts` can be forwarded as is.',
    },
    failOnError: { type: 'boolean', default: true, description: 'A 400+ response status fails the flow with status 502 in `vars.error.status` (the response status is in statusVar); when false the status only goes to statusVar.' },
    statusVar: { type: 'string', default: 'statusCode', description: 'Variable receiving the response status.' },
  },
  example: `- rest:
    connector: api
    method: POST
    path: /orders
    headers: {X-Request-Id: correlationID}
    body: '{"customer": body.customer, "items": body.items}'`,
});
