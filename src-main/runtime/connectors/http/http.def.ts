import { defineConnector } from '../../core/component.ts';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'] as const;

/**
 * How long a client may take to send a request, and how many connections one server holds,
 * unless `readTimeout` says otherwise: a few trickling clients must not hold a deployed route.
 */
export const RECEIVE_DEFAULTS = {
  /** All request headers within this. */
  headersTimeoutMs: 10_000,
  /** The longest pause between body bytes (408 after it). */
  bodyIdleTimeoutMs: 10_000,
  /** The whole request, headers and body (Node's own default, written down). */
  requestTimeoutMs: 300_000,
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: 1000,
} as const;

export const httpDef = defineConnector({
  type: 'http',
  summary: 'An HTTP server; each flow with an http source adds a route to it.',
  description:
    'One server per connector. Host and port come from the settings, else `$HTTP_HOST` / `$HTTP_PORT`, else `0.0.0.0:8080`; an explicit port 0 lets the OS pick and the bound port is reported. Receiving a request is bounded by default: headers within 10 s, a body pausing at most 10 s between bytes (408), the whole request within 300 s, and at most 1000 connections open at once (more are closed as they arrive); `readTimeout` replaces the header and whole-request deadlines and caps the body pause. The server binds only once every connector and every source of the definition has started, so a start that fails (a docstore that cannot be reached) leaves no route reachable, not even briefly. The request becomes the flow’s input message and the flow’s final message the response. CORS is inert unless `cors.allowedOrigins` is non-empty.',
  settings: {
    host: { type: 'string', description: 'Interface to bind; default `$HTTP_HOST`, else 0.0.0.0. An explicit value wins over the variable.', example: '127.0.0.1' },
    port: {
      type: 'int',
      minimum: 0,
      maximum: 65535,
      description: 'Port to bind; default `$HTTP_PORT`, else 8080. Explicit 0 lets the OS pick; an explicit value wins over the variable.',
      example: 8080,
    },
    basePath: { type: 'string', description: 'Prefix of all routes.', example: '/api' },
    keepAlive: { type: 'boolean', description: 'Enable HTTP keep-alives; unset keeps the server default (on), false closes each connection after its response.' },
    requestTimeout: { type: 'duration', default: '30s', description: 'How long a handler waits for the flow before answering 504; a route’s `timeout` overrides it.' },
    readTimeout: {
      type: 'duration',
      description:
        'Longest time to receive a whole request (headers and body); it is then also the headers deadline, and the longest body pause is the shorter of it and 10 s. Unset: headers within 10 s, a body pausing at most 10 s, the whole request within 300 s.',
      example: '30s',
    },
    writeTimeout: { type: 'duration', description: 'Longest time a response write may stay blocked on a slow client before the connection is closed.' },
    idleTimeout: { type: 'duration', description: 'How long an idle keep-alive connection waits for its next request.' },
    cors: {
      type: 'object',
      description: 'Cross-origin access for browsers; inert unless allowedOrigins is non-empty. When enabled, OPTIONS preflights are answered and CORS headers are added on every route.',
      fields: {
        allowedOrigins: {
          type: 'list',
          description: 'Origins allowed, exact matches; a single `*` allows any.',
          items: { type: 'string', description: 'An origin such as https://app.example.com, or *.' },
          example: ['https://app.example.com'],
        },
        allowedMethods: {
          type: 'list',
          default: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
          description: 'Methods a preflight allows.',
          items: { type: 'string', enum: HTTP_METHODS, description: 'An HTTP method.' },
        },
        allowedHeaders: {
          type: 'list',
          description: 'Request headers a preflight allows; default echo the requested headers.',
          items: { type: 'string', description: 'A header name.' },
        },
        exposedHeaders: {
          type: 'list',
          description: 'Response headers the browser may read.',
          items: { type: 'string', description: 'A header name.' },
        },
        allowCredentials: {
          type: 'boolean',
          default: false,
          description: 'Allow cookies and credentials; the request’s origin is echoed instead of `*`.',
        },
        maxAge: { type: 'duration', description: 'How long a browser may cache a preflight answer.' },
      },
    },
  },
  example: `connectors:
  http:
    type: http
    port: 8080
    basePath: /api
    cors:
      allowedOrigins: [https://app.example.com]
      allowCredentials: true`,
});
