import { defineSource } from '../../core/component.ts';

export const queueSourceDef = defineSource({
  type: 'queue',
  onFailure: 'the message is handed back and comes again after `nackDelay`; a request waiting for its reply gets `{error}` instead',
  summary: 'Runs the flow for each message on a platform queue subject, shared by the replicas of the deployment.',
  description: [
    'All replicas of one deployment receive as one consumer group (the deployment id), so each message is handled once; another deployment receiving the same subject sees every message too.',
    'The source long-polls and takes only as many messages as the flow has room for (`workers` plus `buffer`). A message is acknowledged when its flow completes or drops it; a failed message is handed back and comes again after `nackDelay`, and the run’s log says so in a `warn` line naming the step, its block, the error (secrets masked) and the delivery count: each distinct failure once a minute, the rest counted in one summary line.',
    'The flow sees the message body as `body`, and `vars.subject`, `vars.headers`, `vars.messageId`, `vars.deliveryCount`. For a message sent with `queue-request`, the flow’s final body is the reply (a failure replies with `{error}`).',
  ].join('\n\n'),
  settings: {
    subject: { type: 'string', required: true, description: 'The queue subject.', example: 'orders.created' },
    nackDelay: {
      type: 'duration',
      default: '5s',
      description: 'How long a message whose flow failed waits before it is delivered again, so a failing message does not spin.',
    },
    pollWait: {
      type: 'duration',
      description: 'How long one receive waits for a message; defaults to the platform’s queues.pollTimeoutSeconds.',
      hidden: true,
    },
  },
  example: `source:
  type: queue
  subject: orders.created
  nackDelay: 10s`,
});
