import { AllowHeader } from './common.ts';
import { platformRoutes } from './index.ts';
import { buildOpenApi } from './openapi-builder.ts';

/** What the OpenAPI document says beside the routes: info, servers, security, tags and the error codes. */
const info = {
  title: 'Flow Studio Platform Delegation API',
  version: '1.0',
  description:
    'The platform server\'s implementation of the Platform Delegation API v1 (shared spec 1), with every choice the spec leaves open written down here.\n\n- Errors: every failure answers `{error: {code, message}}`; the codes are listed in x-error-codes. An unknown route is 501 route_not_implemented (404 always means the addressed thing is absent); a known path with another method is 405 with Allow. Query strings are percent-decoded strictly: a value that is not valid UTF-8 once decoded, a malformed `%` escape or an unencoded non-ASCII character is 400 invalid_query naming the parameter (never silently replaced by U+FFFD). A switched-off capability answers 501 not_implemented on all its routes.\n- Authentication: with a token configured, every route but /v1/discovery needs `Authorization: Bearer <token>` (compared in constant time), else 401.\n- Durations in requests are numbers of seconds and may have fractions; responses give timestamps as ISO 8601 strings.\n- Versions: X-Object-Version values of KV entries, conversations and memories come from one server-wide counter that never goes backwards, so no version is ever issued twice.\n- Long polls (queue and topic receive) are held in process and woken by publish, nack and timers; the server never polls its database.\n- Durability: every 2xx is answered after its SQLite transaction committed (WAL, synchronous=NORMAL): it survives the server process being killed; an OS crash may lose the last transactions.\n- Limits the spec leaves open: waitSeconds default and maximum = pollTimeoutSeconds; maxMessages default 1, maximum maxBatch; thread list limit default 20 (max 100); turns per page default 100 (max 1000); search limit default 10 (max 100); JSON request bodies up to 4 MiB (telemetry 16 MiB) and nested at most 128 levels deep (arrays and objects; deeper is 400 json_too_deep on every route that reads JSON); a route that takes no body refuses one over 4 MiB. A Content-Length over a route\'s limit is answered 413 at once, before the body is read and before anything else of the request is checked; a chunked body is answered 413 on the chunk that crosses the limit. The 413 goes out whole with `Connection: close`, and the connection is closed once the rest of the body has arrived and been dropped (up to 64 MiB, or until it pauses for the body idle timeout), so a client still sending receives the status instead of a reset connection; a body announced past 64 MiB is not waited for. Receiving a request is bounded (defaults, configurable with the server\'s `limits` option): headers within 10 s, the whole request within 60 s (Node answers 408), and a body pausing more than 10 s between bytes is 408 body_timeout; at most 1000 connections are open at once, more are closed as they arrive. A long poll whose request is in waits its full waitSeconds/timeoutSeconds regardless. No rate limits.\n\nManagement endpoints (spec 2 §2.11, §3.2, §4.2–4.4), where the spec says "not shown":\n- Paths are exactly those of spec 2 §4.2 plus what they need around them (integrations, definition files, bundles, tags, snapshots, deployments), served beside /v1 by the same server behind the same bearer token, with the same error body `{error: {code, message}}` (codes in x-error-codes).\n- Writes record who made them from the `X-Flow-Actor` header (default `local`) and when; resources, definitions and integrations answer `createdBy/createdAt/updatedBy/updatedAt`.\n- Resources are addressed by a server-given id (`res_…`), because names may contain slashes; request and response bodies are JSON with `content` as text, or base64 with `encoding: "base64"` for bytes that are not UTF-8. Each resource downloads on its own from `/integrations/{id}/resources/{resourceId}/content`.\n- Bundles are POSIX tar archives laid out like a workspace integration folder (definitions at the root, `env/<name>`, `template/<name>`); download then upload round-trips every file byte for byte and keeps the declared order of resources.\n- A forced delete of a referenced secret is `DELETE /secrets/{name}?force=true`; it answers the bindings it broke.\n- The frozen-resource endpoint `GET /snapshots/{id}/resources/content` takes the query parameters of `/v1/resources/content` (`kind`, `name`).\n- Env precedence in a deployed runtime (§4.4): the container environment (bindings, resolved secret references, managed variables) wins; then the tag\'s env resources, listed to the runtime in declared order in `FLOW_ENV_RESOURCES`, a later file overriding an earlier one; then the declared defaults. An empty value at any level injects nothing.',
};

const servers = [
  {
    url: 'http://127.0.0.1:7480',
    description: '`npx flow-studio platform` (default port)',
  },
];

const tags = [
  {
    name: 'discovery',
  },
  {
    name: 'kv',
  },
  {
    name: 'resources',
  },
  {
    name: 'leases',
  },
  {
    name: 'leaderElection',
  },
  {
    name: 'queues',
  },
  {
    name: 'topics',
  },
  {
    name: 'agentMemory',
  },
  {
    name: 'traces',
  },
  {
    name: 'logs',
  },
  {
    name: 'integrations',
    description: 'Management (spec 2 §4.2): integrations, their definition files and bundles. Beside /v1 on the same server, behind the same bearer token.',
  },
  {
    name: 'integrationResources',
    description: "Env and template resources of an integration's working copy (spec 2 §2.11).",
  },
  {
    name: 'versionTags',
    description: 'Version tags and the frozen snapshots they name (spec 2 §3.2).',
  },
  {
    name: 'clusterSecrets',
    description: 'Cluster secrets (spec 2 §2.11): names in, values never out.',
  },
  {
    name: 'deployments',
    description: 'Deployments: a tag with its bindings (spec 2 §4.3, §4.4).',
  },
];

const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'The token given with --token/--token-file, or minted per launch into <data-dir>/platform.token.',
  },
};

/** Every error.code the server answers, with its status (the OpenAPI test checks the server source against it). */
export const errorCodes: Record<string, number> = {
  unauthorized: 401,
  route_not_implemented: 501,
  method_not_allowed: 405,
  not_implemented: 501,
  invalid_json: 400,
  invalid_body: 400,
  missing_body: 400,
  missing_field: 400,
  invalid_field: 400,
  missing_parameter: 400,
  invalid_parameter: 400,
  invalid_path: 400,
  invalid_name: 400,
  invalid_version: 400,
  invalid_header: 400,
  invalid_agent_context: 400,
  entry_not_found: 404,
  resource_not_found: 404,
  lease_not_found: 404,
  not_leader: 404,
  request_not_found: 404,
  subscription_not_found: 404,
  working_memory_not_found: 404,
  thread_not_found: 404,
  memory_not_found: 404,
  version_conflict: 409,
  lease_expired: 409,
  value_too_large: 413,
  message_too_large: 413,
  body_too_large: 413,
  batch_too_large: 413,
  no_consumers: 503,
  shutting_down: 503,
  reply_timeout: 504,
  internal_error: 500,
  resource_name_empty: 400,
  resource_name_too_long: 400,
  resource_name_invalid_character: 400,
  resource_name_absolute: 400,
  resource_name_dot_segment: 400,
  resource_name_empty_segment: 400,
  resource_name_root_yaml: 400,
  resource_name_duplicate: 400,
  invalid_definition_file: 400,
  invalid_secret_name: 400,
  invalid_bundle: 400,
  invalid_env_resource: 400,
  invalid_definition: 400,
  no_definitions: 400,
  unknown_variable: 400,
  unknown_secret: 400,
  secret_needs_secret_binding: 400,
  required_variable_unbound: 400,
  managed_variable: 400,
  invalid_binding: 400,
  integration_not_found: 404,
  definition_not_found: 404,
  snapshot_not_found: 404,
  tag_not_found: 404,
  secret_not_found: 404,
  deployment_not_found: 404,
  tag_exists: 409,
  secret_in_use: 409,
  secret_store_unavailable: 503,
  invalid_query: 400,
  json_too_deep: 400,
  body_timeout: 408,
};

/** The OpenAPI 3.1 document of the platform HTTP API, as written to shared/platform-openapi.json by npm run gen. */
export function platformOpenApi(): Record<string, unknown> {
  return buildOpenApi(platformRoutes, {
    info,
    servers,
    security: [{ bearerAuth: [] }, {}],
    tags,
    securitySchemes,
    errorCodes,
    headers: [AllowHeader],
  });
}
