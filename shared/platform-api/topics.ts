import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { subject, subscriptionId } from './parameters.ts';
import { Published } from './queues.ts';
import { NotFound, TooLarge, Unavailable } from './common.ts';

export const TopicPublishRequest = component(
  'TopicPublishRequest',
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
    system: Type.Optional(
      Type.Boolean({
        description: 'true: the platform plane, shared by every deployment. The subject name is never parsed to decide.',
        default: false,
      }),
    ),
    deploymentId: Type.Optional(
      Type.String({
        description:
          "The publishing or subscribing deployment; without `system`, the topic lives on this deployment's own plane (absent: the anonymous deployment).",
      }),
    ),
  }),
);

export const SubscribeRequest = component(
  'SubscribeRequest',
  Type.Object({
    system: Type.Optional(
      Type.Boolean({
        description: 'true: the platform plane, shared by every deployment. The subject name is never parsed to decide.',
        default: false,
      }),
    ),
    deploymentId: Type.Optional(
      Type.String({
        description:
          "The publishing or subscribing deployment; without `system`, the topic lives on this deployment's own plane (absent: the anonymous deployment).",
      }),
    ),
  }),
);

export const Subscription = component(
  'Subscription',
  Type.Object({
    subscriptionId: Type.String(),
    subject: Type.String(),
    system: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    idleExpirySeconds: Type.Integer({
      description: 'topics.subscriptionIdleSeconds: the subscription expires after this long without a receive or ack.',
    }),
  }),
);

export const TopicReceiveRequest = component(
  'TopicReceiveRequest',
  Type.Object({
    subscriptionId: Type.String({ minLength: 1 }),
    waitSeconds: Type.Optional(
      Type.Number({
        description: 'As for queues (topics.pollTimeoutSeconds).',
        minimum: 0,
      }),
    ),
    maxMessages: Type.Optional(
      Type.Integer({
        description: 'Cut to topics.maxBatch.',
        default: 1,
        minimum: 1,
      }),
    ),
  }),
);

export const TopicMessage = component(
  'TopicMessage',
  Type.Object({
    messageId: Type.String({
      description: 'Position in the stream; increases with every publish.',
    }),
    handle: Type.String({
      description: "Ack moves the subscription's cursor past the highest delivered handle it names.",
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
  }),
);

export const TopicReceiveResponse = component('TopicReceiveResponse', Type.Object({ messages: Type.Array(TopicMessage, { minItems: 1 }) }));

export const TopicAckRequest = component(
  'TopicAckRequest',
  Type.Object({
    subscriptionId: Type.String({ minLength: 1 }),
    handles: Type.Optional(Type.Array(Type.String(), { description: 'The handles to settle; required unless `handle` is sent.' })),
    handle: Type.Optional(Type.String({ description: 'Shorthand for a single handle when `handles` is absent.' })),
  }),
);

export const TopicExtendRequest = component(
  'TopicExtendRequest',
  Type.Intersect([
    TopicAckRequest,
    Type.Object({
      seconds: Type.Number({
        description: 'The in-flight deliveries stay with the subscription this long from now (cut to 43200, 12 h): a consumer still working on them (a run paused in a debugger) keeps them.',
        minimum: 1,
        maximum: 43200,
      }),
    }),
  ]),
);

export const topicPublish = defineRoute({
  operationId: 'topicPublish',
  method: 'POST',
  path: '/v1/topics/{subject}/publish',
  tag: 'topics',
  summary: 'Publish to a topic',
  description: 'Every subscription of the (plane, subject) stream sees the message.',
  parameters: [subject],
  body: {
    required: true,
    content: { 'application/json': TopicPublishRequest },
  },
  responses: {
    202: {
      description: 'Accepted.',
      content: { 'application/json': Published },
    },
    413: TooLarge,
  },
});

export const subscribe = defineRoute({
  operationId: 'subscribe',
  method: 'POST',
  path: '/v1/topics/{subject}/subscriptions',
  tag: 'topics',
  summary: 'Create a subscription',
  description: 'The cursor starts at the end of the stream: only later messages are delivered.',
  parameters: [subject],
  body: { required: false, content: { 'application/json': SubscribeRequest } },
  responses: {
    201: {
      description: 'Created.',
      content: { 'application/json': Subscription },
    },
  },
});

export const topicReceive = defineRoute({
  operationId: 'topicReceive',
  method: 'POST',
  path: '/v1/topics/{subject}/receive',
  tag: 'topics',
  summary: 'Receive (long poll)',
  description:
    'Queue receive semantics scoped to one subscription. Unacknowledged deliveries come again after topics.ackDeadlineSeconds. 404 when the subscription was deleted, expired, or belongs to another subject.',
  parameters: [subject],
  body: {
    required: true,
    content: { 'application/json': TopicReceiveRequest },
  },
  responses: {
    200: {
      description: 'Messages.',
      content: { 'application/json': TopicReceiveResponse },
    },
    204: { description: 'The poll expired empty.' },
    404: NotFound,
    503: Unavailable,
  },
});

export const topicAck = defineRoute({
  operationId: 'topicAck',
  method: 'POST',
  path: '/v1/topics/{subject}/ack',
  tag: 'topics',
  summary: 'Advance the cursor',
  description: 'Moves the cursor past the highest delivered handle named. There is no nack. Always 204.',
  parameters: [subject],
  body: { required: true, content: { 'application/json': TopicAckRequest } },
  responses: { 204: { description: 'Done.' } },
});

export const topicExtend = defineRoute({
  operationId: 'topicExtend',
  method: 'POST',
  path: '/v1/topics/{subject}/extend',
  tag: 'topics',
  summary: 'Extend the ack deadline',
  description:
    'When a handle named is still in flight, pushes the subscription\'s ack deadline to `seconds` from now (never nearer), so its unacknowledged deliveries are not delivered again while their consumer still holds them. Handles already acknowledged or past their deadline change nothing. Always 204. An extension of this server beyond spec 1 §4.4: a runtime that gets 404 or 501 goes on without it.',
  parameters: [subject],
  body: { required: true, content: { 'application/json': TopicExtendRequest } },
  responses: { 204: { description: 'Done.' } },
});

export const unsubscribe = defineRoute({
  operationId: 'unsubscribe',
  method: 'DELETE',
  path: '/v1/topics/{subject}/subscriptions/{subscriptionId}',
  tag: 'topics',
  summary: 'Delete a subscription',
  description: '404 when already removed or expired: success. A receive waiting on it ends with 204.',
  parameters: [subject, subscriptionId],
  responses: { 204: { description: 'Removed.' }, 404: NotFound },
});

export const topicsRoutes = [topicPublish, subscribe, topicReceive, topicAck, topicExtend, unsubscribe] as const;
