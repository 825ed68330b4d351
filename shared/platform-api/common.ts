import { Type } from '@sinclair/typebox';
import { component, header, response } from './contract.ts';

export const ErrorBody = component(
  'Error',
  Type.Object({
    error: Type.Object({
      code: Type.String({
        description: 'Advisory machine-readable code; see x-error-codes at the top of this document.',
      }),
      message: Type.String({
        description: 'What was wrong, where, and what to do. Never contains secret values or the X-Flow-Agent-Context header.',
      }),
    }),
  }),
);

export const ObjectVersionHeader = header('ObjectVersion', {
  description: "The object's version.",
  schema: Type.Integer({ format: 'int64', minimum: 1 }),
});
export const AgentIterationHeader = header('AgentIteration', {
  schema: Type.Integer({ minimum: 0 }),
});
export const AgentTokensHeader = header('AgentTokens', {
  schema: Type.Integer({ minimum: 0 }),
});
export const AllowHeader = header('Allow', {
  description: 'Methods the path answers.',
  schema: Type.String(),
});
export const BadRequest = response('BadRequest', {
  description:
    'A field, parameter or header is missing or malformed (codes: invalid_json, invalid_body, missing_field, invalid_field, missing_parameter, invalid_parameter, invalid_path, invalid_name, invalid_version, invalid_header, invalid_agent_context, missing_body; management: the resource_name_* rules, invalid_definition_file, invalid_secret_name, invalid_bundle, invalid_definition, invalid_env_resource, no_definitions, invalid_binding, unknown_variable, unknown_secret, secret_needs_secret_binding, managed_variable, required_variable_unbound).',
  content: { 'application/json': ErrorBody },
});
export const Unauthorized = response('Unauthorized', {
  description: 'A token is configured and the request carries no `Authorization: Bearer` header or another token (code unauthorized).',
  content: { 'application/json': ErrorBody },
  headers: { 'WWW-Authenticate': { schema: Type.String() } },
});
export const NotFound = response('NotFound', {
  description:
    'The addressed thing is absent (never: no such route). A miss on reads; success on deletes, release and resign. On the management routes a 404 (integration_not_found, resource_not_found, definition_not_found, tag_not_found, snapshot_not_found, secret_not_found, deployment_not_found) is an error: the thing must exist first.',
  content: { 'application/json': ErrorBody },
});
export const Conflict = response('Conflict', {
  description:
    'Version conflict (code version_conflict), or on lease renew an expired claim (code lease_expired). Management: a stale X-Object-Version on a resource (version_conflict), a tag name already used (tag_exists), a delete of a secret deployments still bind (secret_in_use).',
  content: { 'application/json': ErrorBody },
});
export const TooLarge = response('TooLarge', {
  description: 'value_too_large, message_too_large, body_too_large or batch_too_large; the message names the limit.',
  content: { 'application/json': ErrorBody },
});
export const NotImplemented = response('NotImplemented', {
  description: "The capability (or the route's flag, e.g. queues.requestReply) is switched off for the life of the process (code not_implemented).",
  content: { 'application/json': ErrorBody },
});
export const Unavailable = response('Unavailable', {
  description:
    'no_consumers: nobody receives on the subject; shutting_down: the server is stopping. secret_store_unavailable: the key of the cluster secret store cannot be loaded (no keyring, a refused backend, or a key that does not open the store).',
  content: { 'application/json': ErrorBody },
});
export const Timeout = response('Timeout', {
  description: 'reply_timeout: no reply within timeoutSeconds.',
  content: { 'application/json': ErrorBody },
});
export const InternalError = response('InternalError', {
  description: 'internal_error: the server failed; the message says where.',
  content: { 'application/json': ErrorBody },
});
export const RequestTimeout = response('RequestTimeout', {
  description: "body_timeout: the request body paused longer than the server's body idle timeout (10 s by default); sent with `Connection: close`.",
  content: { 'application/json': ErrorBody },
});

/**
 * An id a person types that names one path segment: an integration id, a tag, a deployment id
 * (the rule of management/names.ts `checkId`). In a request body a refused one answers 400
 * invalid_name, as it does in a path; `x-expected` is the rule in words for that message.
 */
export function segmentId(example: string) {
  return Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
    examples: [example],
    'x-expected': '1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit',
    'x-error-code': 'invalid_name',
  });
}
