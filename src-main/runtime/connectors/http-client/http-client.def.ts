import { defineConnector } from '../../core/component.ts';

export const HTTP_CLIENT = 'http-client';

export const httpClientDef = defineConnector({
  type: HTTP_CLIENT,
  summary: 'Outbound HTTP: base URL, authentication, default headers, timeout, retry on 429, connection pool, optional GET cache.',
  description:
    'The `rest` and `rest-dynamic` blocks send their requests through it. Every path is appended to `baseURL`, so the base URL bounds where requests can go. ' +
    'Size `pool.maxIdleConnsPerHost` to at least the workers of the busiest flow using the connector: requests beyond it wait for a free connection. ' +
    'A connection returns to the pool only after its body is read to the end; when a response exceeds `maxResponseBytes` the connector drains at most 4 KiB of what the cap hid and drops the connection beyond that. ' +
    'A request that fails (unreachable server, response over `maxResponseBytes`) fails the message with status 502 in `vars.error.status`, one that times out with 504.',
  settings: {
    baseURL: {
      type: 'string',
      required: true,
      description: 'Absolute http(s) URL (scheme and host, optionally a base path) prepended to each path.',
      example: 'https://api.example.com/v1',
    },
    timeout: { type: 'duration', default: '30s', description: 'Bounds each request attempt, from connecting to the last body byte.' },
    headers: {
      type: 'map',
      description: 'Headers applied to every request unless the block already set them (names compared case-insensitively).',
      values: { type: 'string', description: 'Header value.' },
      example: { Accept: 'application/json' },
    },
    maxResponseBytes: {
      type: 'int',
      default: 1048576,
      minimum: 0,
      description: 'Response body cap in bytes; a larger response fails the request with a message naming the limit.',
    },
    auth: {
      type: 'object',
      description: 'The connector’s own credential, sent on every request that does not already carry an Authorization header.',
      fields: {
        type: { type: 'string', required: true, enum: ['bearer', 'basic', 'oauth2', 'cloud'], description: 'Scheme.' },
        token: { type: 'string', description: 'Required with bearer; sent as `Authorization: Bearer <token>`.', example: '${API_TOKEN}' },
        username: { type: 'string', description: 'Basic auth user name (required with basic).' },
        password: { type: 'string', description: 'Basic auth password.', example: '${API_PASSWORD}' },
        tokenURL: { type: 'string', description: 'Required with oauth2: the token endpoint of the client-credentials grant.', example: 'https://auth.example.com/oauth/token' },
        clientID: { type: 'string', description: 'Required with oauth2.' },
        clientSecret: { type: 'string', description: 'Required with oauth2.', example: '${CLIENT_SECRET}' },
        scopes: { type: 'list', description: 'Requested OAuth 2.0 scopes.', items: { type: 'string', description: 'Scope.' } },
        cloudToken: {
          type: 'string',
          enum: ['identity', 'access'],
          default: 'identity',
          description: 'Which token the cloud instance metadata server mints.',
        },
        cloudAudience: { type: 'string', description: 'Audience of an identity token; default: the origin of baseURL.' },
        cloudScopes: {
          type: 'list',
          description: 'Scopes of an access token; default: the service account’s own.',
          items: { type: 'string', description: 'Scope URL.' },
        },
      },
    },
    retry: {
      type: 'object',
      description: 'Retry on 429: the Retry-After header (seconds or HTTP date) is honoured, else exponential backoff. Applies with its defaults when unset.',
      fields: {
        maxAttempts: { type: 'int', default: 3, minimum: 0, description: 'Total attempts including the first; 1 or less disables retries.' },
        maxBackoff: { type: 'duration', default: '30s', description: 'Caps each wait, including a large Retry-After.' },
      },
    },
    pool: {
      type: 'object',
      description: 'Connection pool. Every request goes to the one origin of baseURL, so the smaller of the two idle limits bounds its connections.',
      fields: {
        maxIdleConns: { type: 'int', default: 100, minimum: 1, description: 'Connections kept in total.' },
        maxIdleConnsPerHost: { type: 'int', default: 100, minimum: 1, description: 'Connections kept to the host.' },
        idleConnTimeout: { type: 'duration', default: '90s', description: 'How long an idle connection is kept.' },
        disableKeepAlives: { type: 'boolean', default: false, description: 'Use a new connection for every request.' },
      },
    },
    cache: {
      type: 'object',
      description: 'In-memory cache of successful GET responses, keyed by URL and request headers.',
      fields: {
        enabled: { type: 'boolean', default: false, description: 'Turn the cache on.' },
        ttl: { type: 'duration', default: '60s', description: 'How long a response is served from memory.' },
        maxEntries: { type: 'int', default: 256, minimum: 1, description: 'Responses kept; the least recently used goes first.' },
      },
    },
  },
  example: `connectors:
  api:
    type: http-client
    baseURL: https://api.example.com/v1
    headers: {Accept: application/json}
    auth:
      type: oauth2
      tokenURL: https://auth.example.com/oauth/token
      clientID: \${CLIENT_ID}
      clientSecret: \${CLIENT_SECRET}
      scopes: [orders.read]
    retry: {maxAttempts: 4, maxBackoff: 10s}
    cache: {enabled: true, ttl: 30s}`,
});
