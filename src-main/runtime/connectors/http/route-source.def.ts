import { defineSource } from '../../core/component.ts';
import { HTTP_METHODS } from './http.def.ts';

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
export const DEFAULT_HEARTBEAT_MS = 15_000;

export const routeSourceDef = defineSource({
  type: 'http',
  connectorType: 'http',
  onFailure: 'the caller gets 500 `{error}` (a stream already open gets an `event: error` frame)',
  summary: 'Serves a route on an http connector; each request runs the flow and its final message is the response.',
  description: `The request becomes the message: path parameters, \`method\`, \`query\` (first value per key, always present) and the listed \`headers\` land in \`vars\`; a JSON body in \`body\` (an empty body stays null, malformed JSON, or JSON nesting arrays and objects deeper than 128 levels, answers 400 before the flow runs). A multipart/form-data body (whatever \`rawBody\` says) gives \`body\` the keys \`contentType\`, \`rawData\` (both as received) and \`parts\`, which maps each part name to \`{name, filename, contentType, encoding, size, data, headers}\` (a list when the name repeats): a part with a filename is a file, \`encoding: base64\`; a part without one is a plain field, \`filename: null\` and \`encoding: text\`, whatever its Content-Type; \`size\` is the decoded byte length. A body that will not parse answers 400.

The response: the final body as JSON with 200, or raw content \`{contentType, rawData}\` with its own Content-Type; \`vars.httpStatus\` (100–599) overrides the status. A dropped message answers 204, a failed flow 500 \`{error}\` even when an earlier step set \`vars.httpStatus\` (only a status and a body its error chain sets itself replace them), a flow slower than \`timeout\` 504. Other methods than \`methods\` answer 405 with an Allow header; bodies over \`maxBodyBytes\` 413.

With \`sse.enabled\` the route can answer as a server-sent event stream: the stream address lands in \`vars.sseStream\` and the first \`sse-event\` frame commits a 200 \`text/event-stream\` response.`,
  settings: {
    connector: { type: 'string', connectorType: 'http', default: 'http', description: 'The http connector serving the route; defaults to the only one.' },
    path: { type: 'string', required: true, description: 'Route pattern after the connector’s basePath; each `{name}` segment becomes `vars.name`.', example: '/orders/{id}' },
    methods: {
      type: 'list',
      description: 'Methods served; others get 405 with an Allow header before any flow runs. GET also answers HEAD (the flow runs for it). Default: every method.',
      items: { type: 'string', enum: HTTP_METHODS, description: 'An HTTP method in capitals.' },
      example: ['GET', 'POST'],
    },
    headers: {
      type: 'list',
      description: 'Request headers copied into variables of the same name, e.g. `vars["X-Tenant"]`.',
      items: { type: 'string', description: 'A header name.' },
      example: ['Authorization', 'X-Tenant'],
    },
    responseHeaders: {
      type: 'list',
      description: 'Response headers taken from variables of the same name after the flow completes (scalar values only). Content-Type is managed by the source.',
      items: { type: 'string', description: 'A header name.' },
      example: ['Location'],
    },
    correlationIdHeader: { type: 'string', description: 'Header the correlation id comes from; the flow sees it as `correlationID`.', example: 'X-Request-ID' },
    rawBodyVar: { type: 'string', description: 'Also store the exact request bytes in this variable: as text when they are valid UTF-8, else as the bytes themselves (CEL `bytes`), so a signature over them still verifies.', example: 'rawBody' },
    rawBody: {
      type: 'boolean',
      default: false,
      description: 'Skip the JSON check; the body becomes `{contentType, rawData}` with the request Content-Type. Multipart bodies are decoded either way.',
    },
    timeout: { type: 'duration', description: 'How long to wait for the flow (504 after); default the connector’s requestTimeout. On an SSE route it bounds the wait for the first frame.' },
    maxBodyBytes: { type: 'int', default: DEFAULT_MAX_BODY_BYTES, minimum: 0, description: 'Largest request body accepted; larger ones get 413 without being read into memory.' },
    sse: {
      type: 'object',
      description: 'Serve the route as a server-sent event stream that sse-event blocks write to.',
      fields: {
        enabled: { type: 'boolean', default: false, description: 'Serve the route as an event stream.' },
        streamVar: { type: 'string', default: 'sseStream', description: 'Variable that receives the stream address `<connector>:<id>`.' },
        finalEvent: { type: 'boolean', default: false, description: 'Emit the flow’s response message as one last frame.' },
        finalEventName: { type: 'string', description: '`event:` name of that last frame.', example: 'done' },
        closeOnComplete: { type: 'boolean', default: true, description: 'Close the stream when the flow’s own run ends.' },
        heartbeat: { type: 'duration', default: '15s', description: 'An idle stream writes a `: ping` comment this often; 0 means the default, not off.' },
        maxDuration: { type: 'duration', description: 'Hard cap on the lifetime of an open stream; unlimited when unset.' },
        maxStreams: { type: 'int', minimum: 1, description: 'Concurrent streams on the route; requests over the cap get 503. Unlimited when unset.' },
      },
    },
  },
  example: `source:
  type: http
  path: /orders/{id}
  methods: [GET, PUT]
  headers: [Authorization]
  responseHeaders: [Location]`,
});
