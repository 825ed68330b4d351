import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { subject } from './parameters.ts';
import { NotFound, Timeout, TooLarge, Unavailable } from './common.ts';

export const PublishRequest = component(
  'PublishRequest',
  Type.Object({
    body: Type.Optional(
      Type.Unknown({
        description: 'Any JSON value; null when absent. Binary content is encoded by the client (e.g. {contentType, rawData} with base64).',
      }),
    ),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Message headers, string to string.',
      }),
    ),
  }),
);

export const Published = component('Published', Type.Object({ messageId: Type.String() }));

export const QueueReceiveRequest = component(
  'QueueReceiveRequest',
  Type.Object({
    consumerGroup: Type.String({
      description:
        'The deployment id. Every group sees every message; inside a group each delivery goes to one receiver. A group comes into being on its first receive: messages published while the subject had no group at all wait for the first group; a group added later starts with messages published after it.',
      minLength: 1,
    }),
    waitSeconds: Type.Optional(
      Type.Number({
        description: 'Hold the request up to this long for a message (cut to queues.pollTimeoutSeconds, which is also the default). 0 answers at once.',
        minimum: 0,
      }),
    ),
    maxMessages: Type.Optional(
      Type.Integer({
        description: 'Cut to queues.maxBatch.',
        default: 1,
        minimum: 1,
      }),
    ),
    ackDeadlineSeconds: Type.Optional(
      Type.Number({
        description: "This receive's own ack deadline; default queues.ackDeadlineSeconds, longer is cut to 43200 (12 h).",
        minimum: 1,
        maximum: 43200,
      }),
    ),
  }),
);

export const QueueMessage = component(
  'QueueMessage',
  Type.Object({
    messageId: Type.String({
      description: "Same for every consumer group's copy.",
    }),
    handle: Type.String({
      description: 'Settles this delivery and no other: after a redelivery an earlier handle settles nothing.',
    }),
    deliveryCount: Type.Integer({
      description: '1 on the first delivery, then one more on each redelivery (deadline passed or nack).',
      minimum: 1,
    }),
    publishedAt: Type.String({ format: 'date-time' }),
    body: Type.Unknown({
      description: 'Any JSON value; null when absent. Binary content is encoded by the client (e.g. {contentType, rawData} with base64).',
    }),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Message headers, string to string.',
      }),
    ),
    replyTo: Type.Optional(
      Type.String({
        description: 'Present on messages sent with /request: post the answer to /v1/queues/reply with this value.',
      }),
    ),
  }),
);

export const QueueReceiveResponse = component('QueueReceiveResponse', Type.Object({ messages: Type.Array(QueueMessage, { minItems: 1 }) }));

export const SettleRequest = component(
  'SettleRequest',
  Type.Object(
    {
      handles: Type.Optional(Type.Array(Type.String(), { description: 'The handles to settle; required unless `handle` is sent.' })),
      handle: Type.Optional(
        Type.String({
          description: 'Shorthand for a single handle when `handles` is absent.',
        }),
      ),
      consumerGroup: Type.Optional(
        Type.String({ description: 'The receiving deployment; the runtime sends it for platforms that want it, this server ignores it.' }),
      ),
    },
    {
      description: 'Extra fields (e.g. consumerGroup) are ignored: a handle identifies its delivery.',
    },
  ),
);

export const NackRequest = component(
  'NackRequest',
  Type.Intersect([
    SettleRequest,
    Type.Object({
      delaySeconds: Type.Optional(
        Type.Number({
          description: 'The message stays invisible this long, then is delivered again. Cut to queues.maxDelaySeconds.',
          default: 0,
          minimum: 0,
        }),
      ),
    }),
  ]),
);

export const RequestRequest = component(
  'RequestRequest',
  Type.Object({
    body: Type.Optional(
      Type.Unknown({
        description: 'Any JSON value; null when absent. Binary content is encoded by the client (e.g. {contentType, rawData} with base64).',
      }),
    ),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Message headers, string to string.',
      }),
    ),
    timeoutSeconds: Type.Optional(
      Type.Number({
        description: 'Cut to queues.maxRequestTimeoutSeconds.',
        default: 30,
        minimum: 0,
      }),
    ),
  }),
);

export const ReplyRequest = component(
  'ReplyRequest',
  Type.Object({
    replyTo: Type.String({ minLength: 1 }),
    body: Type.Optional(
      Type.Unknown({
        description: 'Any JSON value; null when absent. Binary content is encoded by the client (e.g. {contentType, rawData} with base64).',
      }),
    ),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Message headers, string to string.',
      }),
    ),
  }),
);

export const Reply = component(
  'Reply',
  Type.Object({
    body: Type.Unknown({
      description: 'Any JSON value; null when absent. Binary content is encoded by the client (e.g. {contentType, rawData} with base64).',
    }),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Message headers, string to string.',
      }),
    ),
  }),
);

export const queuePublish = defineRoute({
  operationId: 'queuePublish',
  method: 'POST',
  path: '/v1/queues/{subject}/publish',
  tag: 'queues',
  summary: 'Publish a message',
  description: 'Stored before the answer (survives a crash of the server), then handed at once to a receive waiting in any consumer group.',
  parameters: [subject],
  body: { required: true, content: { 'application/json': PublishRequest } },
  responses: {
    202: {
      description: 'Accepted.',
      content: { 'application/json': Published },
    },
    413: TooLarge,
  },
});

export const queueRequest = defineRoute({
  operationId: 'queueRequest',
  method: 'POST',
  path: '/v1/queues/{subject}/request',
  tag: 'queues',
  summary: 'Publish and wait for the reply',
  description:
    'Refused at once with 503 when no receive on the subject is waiting or happened within queues.ackDeadlineSeconds. The message carries replyTo; the request is held until a consumer posts to /v1/queues/reply or timeoutSeconds pass (504). When the request ends, its message is withdrawn from the queue. 501 when queues.requestReply is false.',
  parameters: [subject],
  body: { required: true, content: { 'application/json': RequestRequest } },
  responses: {
    200: { description: 'The reply.', content: { 'application/json': Reply } },
    413: TooLarge,
    503: Unavailable,
    504: Timeout,
  },
});

export const queueReceive = defineRoute({
  operationId: 'queueReceive',
  method: 'POST',
  path: '/v1/queues/{subject}/receive',
  tag: 'queues',
  summary: 'Receive (long poll)',
  description:
    'Answers as soon as a message is visible to the consumer group, with up to maxMessages; 204 only after waitSeconds passed with nothing. Delivered messages stay invisible until acked, nacked or their ack deadline passes.',
  parameters: [subject],
  body: {
    required: true,
    content: { 'application/json': QueueReceiveRequest },
  },
  responses: {
    200: {
      description: 'Messages.',
      content: { 'application/json': QueueReceiveResponse },
    },
    204: { description: 'The poll expired empty.' },
    503: Unavailable,
  },
});

export const queueAck = defineRoute({
  operationId: 'queueAck',
  method: 'POST',
  path: '/v1/queues/{subject}/ack',
  tag: 'queues',
  summary: 'Settle deliveries',
  description: 'Always 204: an unknown, already settled or expired handle changes nothing.',
  parameters: [subject],
  body: { required: true, content: { 'application/json': SettleRequest } },
  responses: { 204: { description: 'Done.' } },
});

export const queueNack = defineRoute({
  operationId: 'queueNack',
  method: 'POST',
  path: '/v1/queues/{subject}/nack',
  tag: 'queues',
  summary: 'Return deliveries',
  description: 'Messages whose handle is current become visible again after delaySeconds. Other handles change nothing. Always 204.',
  parameters: [subject],
  body: { required: true, content: { 'application/json': NackRequest } },
  responses: { 204: { description: 'Done.' } },
});

export const ExtendRequest = component(
  'ExtendRequest',
  Type.Intersect([
    SettleRequest,
    Type.Object({
      seconds: Type.Number({
        description: 'The deliveries stay invisible this long from now (cut to 43200, 12 h): a consumer still working on them (a run paused in a debugger) keeps them.',
        minimum: 1,
        maximum: 43200,
      }),
    }),
  ]),
);

export const queueExtend = defineRoute({
  operationId: 'queueExtend',
  method: 'POST',
  path: '/v1/queues/{subject}/extend',
  tag: 'queues',
  summary: 'Extend ack deadlines',
  description:
    'Pushes the ack deadline of deliveries whose handle is current to `seconds` from now, so they are not delivered again while their consumer still holds them. Other handles change nothing. Always 204. An extension of this server beyond spec 1 §4.3: a runtime that gets 404 or 501 goes on without it.',
  parameters: [subject],
  body: { required: true, content: { 'application/json': ExtendRequest } },
  responses: { 204: { description: 'Done.' } },
});

export const queueReply = defineRoute({
  operationId: 'queueReply',
  method: 'POST',
  path: '/v1/queues/reply',
  tag: 'queues',
  summary: 'Answer a request',
  description:
    '404 (code request_not_found) when no request waits for this replyTo any more (answered, timed out, or its caller went away). 501 when queues.requestReply is false.',
  body: { required: true, content: { 'application/json': ReplyRequest } },
  responses: {
    204: { description: 'Relayed to the requester.' },
    404: NotFound,
    413: TooLarge,
  },
});

export const queuesRoutes = [queuePublish, queueRequest, queueReceive, queueAck, queueNack, queueExtend, queueReply] as const;
