import { Type, type TProperties } from '@sinclair/typebox';
import { StringEnum, component } from './contract.ts';
import { defineRoute } from './route.ts';

/** A capability's block of the discovery document: `supported`, the policy when off, and its own fields. */
function capability<T extends TProperties>(fields: T, description: string) {
  return Type.Optional(
    Type.Object(
      {
        supported: Type.Boolean({ default: false }),
        unsupported: Type.Optional(
          StringEnum(['noop', 'error'], {
            description: 'Declared only when a features file sets it for a switched-off capability.',
          }),
        ),
        ...fields,
      },
      { description },
    ),
  );
}

export const Discovery = component(
  'Discovery',
  Type.Object({
    specVersion: Type.Literal('1.0'),
    implementation: Type.Optional(
      Type.Object({
        name: Type.Optional(Type.String({ example: 'flow-studio-platform' })),
        version: Type.Optional(Type.String()),
      }),
    ),
    features: Type.Optional(
      Type.Object(
        {
          kv: capability(
            {
              namespaces: Type.Optional(
                Type.Array(Type.String(), {
                  description: 'Informational: the six namespaces the runtime sends today. Any other name is served the same way.',
                }),
              ),
              maxValueBytes: Type.Optional(
                Type.Integer({
                  description: 'Largest value a PUT accepts; a larger one is answered 413 value_too_large. Default 1048576.',
                  minimum: 0,
                }),
              ),
            },
            'Key/value storage.',
          ),
          secrets: capability(
            {
              encryptedAtRest: Type.Optional(
                Type.Boolean({
                  description:
                    'True: values in namespaces ending in `_secrets` are sealed with AES-256-GCM; the key lives in a 0600 file in the data directory, never in the database.',
                }),
              ),
            },
            'Secrets are KV entries in *_secrets namespaces.',
          ),
          resources: capability({}, 'GET /v1/resources/content.'),
          leases: capability(
            {
              minTtlSeconds: Type.Optional(
                Type.Integer({
                  description: 'A shorter ttlSeconds is raised to this. Default 1.',
                  minimum: 0,
                }),
              ),
              maxTtlSeconds: Type.Optional(
                Type.Integer({
                  description: 'A longer ttlSeconds is cut to this. Default 3600.',
                  minimum: 0,
                }),
              ),
              defaultTtlSeconds: Type.Optional(
                Type.Integer({
                  description: 'TTL when an acquire names none. Default 15.',
                  minimum: 0,
                }),
              ),
            },
            'Leases (§3.1).',
          ),
          leaderElection: capability(
            {
              leaseTtlSeconds: Type.Optional(
                Type.Integer({
                  description: 'Default leadership TTL (a campaign may send its own ttlSeconds, clamped to the lease bounds). Default 15.',
                  minimum: 0,
                }),
              ),
              renewIntervalSeconds: Type.Optional(
                Type.Integer({
                  description: 'Default 5; at most a third of leaseTtlSeconds.',
                  minimum: 0,
                }),
              ),
              observeIntervalSeconds: Type.Optional(Type.Integer({ description: 'Default 2.', minimum: 0 })),
            },
            'Leader election (§3.2).',
          ),
          queues: capability(
            {
              requestReply: Type.Optional(
                Type.Boolean({
                  description: '/request and /reply are implemented.',
                }),
              ),
              pollTimeoutSeconds: Type.Optional(
                Type.Integer({
                  description: 'Longest a receive is held; also the wait when a receive names no waitSeconds. A larger waitSeconds is cut to it. Default 20.',
                  minimum: 0,
                }),
              ),
              maxBatch: Type.Optional(
                Type.Integer({
                  description: 'Most messages one receive returns; a larger maxMessages is cut to it. Default 100.',
                  minimum: 0,
                }),
              ),
              ackDeadlineSeconds: Type.Optional(
                Type.Integer({
                  description:
                    'How long a delivered message stays invisible waiting for ack or nack before it is delivered again. A receive may ask for its own (1 to 43200). Default 30.',
                  minimum: 0,
                }),
              ),
              maxMessageBytes: Type.Optional(
                Type.Integer({
                  description: 'Largest JSON-encoded message body (413 message_too_large beyond it). Default 1048576.',
                  minimum: 0,
                }),
              ),
              maxDelaySeconds: Type.Optional(
                Type.Integer({
                  description: 'Longest nack delay honoured; longer ones are cut. Default 43200.',
                  minimum: 0,
                }),
              ),
              maxRequestTimeoutSeconds: Type.Optional(
                Type.Integer({
                  description: 'Longest timeoutSeconds of a request. Default 300.',
                  minimum: 0,
                }),
              ),
            },
            'Queues (§3.3).',
          ),
          topics: capability(
            {
              pollTimeoutSeconds: Type.Optional(
                Type.Integer({
                  description: 'As for queues. Default 20.',
                  minimum: 0,
                }),
              ),
              maxBatch: Type.Optional(
                Type.Integer({
                  description: 'As for queues. Default 100.',
                  minimum: 0,
                }),
              ),
              ackDeadlineSeconds: Type.Optional(
                Type.Integer({
                  description: 'Delivered but unacknowledged messages are delivered again to the subscription after this long. Default 30.',
                  minimum: 0,
                }),
              ),
              subscriptionIdleSeconds: Type.Optional(
                Type.Integer({
                  description: 'A subscription with no receive or ack for this long expires (a waiting receive counts as activity); receive then answers 404. Default 300.',
                  minimum: 0,
                }),
              ),
              maxMessageBytes: Type.Optional(Type.Integer({ description: 'As for queues.', minimum: 0 })),
            },
            'Topics (§3.4).',
          ),
          agentMemory: capability(
            {
              semantic: Type.Optional(
                Type.Boolean({
                  description: 'Always false: search ranks by text matching (SQLite FTS5, BM25).',
                }),
              ),
              listThreads: Type.Optional(Type.Boolean({ description: '' })),
              readThread: Type.Optional(Type.Boolean({ description: '' })),
              search: Type.Optional(Type.Boolean({ description: '' })),
              maxWorkingMemoryBytes: Type.Optional(
                Type.Integer({
                  description: 'Largest working memory a save accepts. Default 8388608.',
                  minimum: 0,
                }),
              ),
            },
            'Agent memory (§4.5).',
          ),
          traces: capability(
            {
              maxBatch: Type.Optional(
                Type.Integer({
                  description: 'Most records per POST /v1/traces (413 batch_too_large beyond). Default 1000.',
                  minimum: 0,
                }),
              ),
              flushIntervalMillis: Type.Optional(
                Type.Integer({
                  description: 'How often a client should send what it has gathered. Default 1000.',
                  minimum: 0,
                }),
              ),
              retainRecords: Type.Optional(
                Type.Integer({
                  description: 'Most trace records kept; the oldest batches are deleted first. Default 100000.',
                  minimum: 0,
                }),
              ),
              retainBytes: Type.Optional(
                Type.Integer({
                  description: 'Most bytes of trace record JSON kept; the oldest batches are deleted first. Default 67108864 (64 MiB).',
                  minimum: 0,
                }),
              ),
              retainSeconds: Type.Optional(
                Type.Integer({
                  description: 'Records older than this are deleted. Default 604800 (7 days).',
                  minimum: 0,
                }),
              ),
            },
            'Traces (§4.6).',
          ),
          logs: capability(
            {
              maxBatch: Type.Optional(
                Type.Integer({
                  description: 'Most records per POST /v1/logs. Default 1000.',
                  minimum: 0,
                }),
              ),
              retainRecords: Type.Optional(Type.Integer({ description: 'Default 100000.', minimum: 0 })),
              retainBytes: Type.Optional(
                Type.Integer({
                  description: 'Default 33554432 (32 MiB).',
                  minimum: 0,
                }),
              ),
              retainSeconds: Type.Optional(Type.Integer({ description: 'Default 604800.', minimum: 0 })),
            },
            'Logs (§4.6).',
          ),
        },
        {
          description:
            "One block per capability. A switched-off capability is {supported: false} (plus `unsupported` when configured). Extra fields beyond spec §2.2 are this server's own limits; clients ignore fields they do not know.",
        },
      ),
    ),
  }),
);

export const getDiscovery = defineRoute({
  operationId: 'getDiscovery',
  method: 'GET',
  path: '/v1/discovery',
  tag: 'discovery',
  summary: 'What this server implements',
  description: 'Public: answers without a token. 501 when every capability is switched off (nothing implemented).',
  public: true,
  responses: {
    200: {
      description: 'The discovery document.',
      content: { 'application/json': Discovery },
    },
  },
});

export const getOpenApi = defineRoute({
  operationId: 'getOpenApi',
  method: 'GET',
  path: '/v1/openapi.json',
  tag: 'discovery',
  summary: 'This document',
  description: 'Serves shared/platform-openapi.json.',
  responses: {
    200: {
      description: 'OpenAPI 3.1',
      content: { 'application/json': Type.Object({}) },
    },
  },
});

export const discoveryRoutes = [getDiscovery, getOpenApi] as const;
