import { Type } from '@sinclair/typebox';
import { segmentId } from './common.ts';
import { parameter, StringEnum } from './contract.ts';

/** Path, query and header parameters, shared by the routes that take them (components.parameters). */
export const namespace = parameter('namespace', {
  name: 'namespace',
  in: 'path',
  required: true,
  schema: Type.String(),
  description: 'Full name with suffix, routed on as given (not an enum). `*_secrets`: encrypted at rest. `*_volatile`: kept in memory, lost on restart.',
} as const);
export const key = parameter('key', {
  name: 'key',
  in: 'query',
  required: true,
  schema: Type.String({ minLength: 1, examples: ['orders/42'] }),
  description: 'May contain slashes.',
} as const);
export const kind = parameter('kind', {
  name: 'kind',
  in: 'query',
  required: true,
  schema: StringEnum(['env', 'template'], { examples: ['template'] }),
} as const);
export const resourceName = parameter('resourceName', {
  name: 'name',
  in: 'query',
  required: true,
  schema: Type.String({ examples: ['emails/welcome.txt'] }),
  description: 'May contain slashes, e.g. emails/welcome.txt.',
} as const);
export const memoryName = parameter('memoryName', {
  name: 'name',
  in: 'query',
  required: true,
  schema: Type.String({ examples: ['preferences/diet'] }),
  description: 'May contain slashes.',
} as const);
export const subject = parameter('subject', {
  name: 'subject',
  in: 'path',
  required: true,
  schema: Type.String(),
  description: 'Percent-encoded; decoded exactly once (orders%2Fnew is the subject orders/new). May not contain NUL.',
} as const);
export const leaseId = parameter('leaseId', {
  name: 'leaseId',
  in: 'path',
  required: true,
  schema: Type.String(),
} as const);
export const leaderKey = parameter('leaderKey', {
  name: 'key',
  in: 'path',
  required: true,
  schema: Type.String(),
  description: 'Percent-encoded.',
} as const);
export const subscriptionId = parameter('subscriptionId', {
  name: 'subscriptionId',
  in: 'path',
  required: true,
  schema: Type.String(),
} as const);
export const agentId = parameter('agentId', {
  name: 'agentId',
  in: 'path',
  required: true,
  schema: Type.String(),
} as const);
export const threadKey = parameter('threadKey', {
  name: 'threadKey',
  in: 'path',
  required: true,
  schema: Type.String(),
  description: 'It alone addresses the conversation.',
} as const);
export const userIdQuery = parameter('userIdQuery', {
  name: 'userId',
  in: 'query',
  required: false,
  schema: Type.String(),
  description:
    "On writes: recorded as the conversation's user when none is recorded yet. On the thread list: only this person's conversations. Elsewhere ignored: the thread key alone addresses a conversation.",
} as const);
export const userIdPath = parameter('userIdPath', {
  name: 'userId',
  in: 'path',
  required: true,
  schema: Type.String(),
} as const);
export const cursor = parameter('cursor', {
  name: 'cursor',
  in: 'query',
  required: false,
  schema: Type.String(),
  description: 'nextCursor of the previous page; absent starts at the beginning. 400 when unreadable.',
} as const);
export const threadLimit = parameter('threadLimit', {
  name: 'limit',
  in: 'query',
  required: false,
  schema: Type.Integer({ default: 20, minimum: 1, maximum: 100 }),
  description: 'Larger values are cut to 100; 0 or a non-integer is 400.',
} as const);
export const turnLimit = parameter('turnLimit', {
  name: 'limit',
  in: 'query',
  required: false,
  schema: Type.Integer({ default: 100, minimum: 1, maximum: 1000 }),
  description: 'Turns per page; larger values are cut to 1000.',
} as const);
export const objectVersion = parameter('objectVersion', {
  name: 'X-Object-Version',
  in: 'header',
  required: false,
  schema: Type.Integer({ format: 'int64', default: 0, minimum: 0 }),
  description:
    'PUT: 0 or absent creates and fails 409 if the object exists; positive must equal the stored version. DELETE: 0 or absent deletes unconditionally; positive must match. Versions come from one server-wide counter that never repeats, so a version read before a delete never matches a re-created object. Any int64 from 0 to 9223372036854775807 is valid (a value no object holds answers 409); anything else, including an empty header, is 400 invalid_version.',
} as const);
export const agentContext = parameter('agentContext', {
  name: 'X-Flow-Agent-Context',
  in: 'header',
  required: false,
  schema: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
  description:
    'base64url without padding of a compact JSON object of string values. Absent: ignored. Present but unreadable: 400 invalid_agent_context. Never logged, stored or repeated in an error.',
} as const);
export const agentIteration = parameter('agentIteration', {
  name: 'X-Agent-Iteration',
  in: 'header',
  required: false,
  schema: Type.Integer({ default: 0, minimum: 0 }),
  description: 'Iterations the agent had run when the context was saved; returned by GET.',
} as const);
export const agentTokens = parameter('agentTokens', {
  name: 'X-Agent-Tokens',
  in: 'header',
  required: false,
  schema: Type.Integer({ default: 0, minimum: 0 }),
  description: 'Tokens the saved context occupies; returned by GET.',
} as const);
export const integrationId = parameter('integrationId', {
  name: 'id',
  in: 'path',
  required: true,
  schema: segmentId('orders-api'),
  description: 'Integration id, e.g. orders-api (the workspace folder name).',
} as const);
export const resourceId = parameter('resourceId', {
  name: 'resourceId',
  in: 'path',
  required: true,
  schema: Type.String(),
  description: 'The id the server gave the resource (res_…); names are not used in paths because they may contain slashes.',
} as const);
export const definitionFile = parameter('definitionFile', {
  name: 'file',
  in: 'path',
  required: true,
  schema: Type.String({ pattern: '^[^/]+\\.ya?ml$' }),
  description: 'A root-level definition file, e.g. orders.yaml.',
} as const);
export const tagName = parameter('tagName', {
  name: 'tag',
  in: 'path',
  required: true,
  schema: segmentId('v1.2.0'),
  description: 'Version tag, e.g. v1.2.0.',
} as const);
export const snapshotId = parameter('snapshotId', {
  name: 'id',
  in: 'path',
  required: true,
  schema: Type.String(),
  description: 'Snapshot id of a tag (snap_…), as carried in FLOW_SNAPSHOT_ID.',
} as const);
export const secretName = parameter('secretName', {
  name: 'name',
  in: 'path',
  required: true,
  schema: Type.String({ pattern: '^[-._A-Za-z0-9]{1,253}$' }),
  description: 'Cluster secret name: a key of the flow-secrets object.',
} as const);
export const deploymentId = parameter('deploymentId', {
  name: 'id',
  in: 'path',
  required: true,
  schema: segmentId('orders-api-prod'),
  description: 'Deployment id; the runtime runs with FLOW_DEPLOYMENT_ID set to it.',
} as const);
export const actor = parameter('actor', {
  name: 'X-Flow-Actor',
  in: 'header',
  required: false,
  schema: Type.String({ default: 'local', maxLength: 200 }),
  description: 'Who makes the write, recorded as createdBy/updatedBy. Absent: local.',
} as const);
export const force = parameter('force', {
  name: 'force',
  in: 'query',
  required: false,
  schema: StringEnum(['true', 'false'], { default: 'false' }),
  description: 'true deletes a secret even while deployments bind it.',
} as const);
