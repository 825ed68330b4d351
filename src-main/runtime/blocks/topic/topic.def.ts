import { defineSource } from '../../core/component.ts';

export const topicSourceDef = defineSource({
  type: 'topic',
  onFailure: 'the delivery is acknowledged all the same (a topic has no redelivery)',
  summary: 'Runs the flow for every message published on a platform topic subject after the flow started.',
  description: [
    'Each running flow holds its own subscription, created when the flow starts (at the end of the stream) and deleted when it stops, so every instance sees every message: use a topic for fan-out and a `queue` for work shared between replicas.',
    'A delivery is acknowledged whatever the flow did; topics have no redelivery of failures. The flow sees `body`, `vars.subject`, `vars.headers` and `vars.messageId`.',
  ].join('\n\n'),
  settings: {
    subject: { type: 'string', required: true, description: 'The topic subject.', example: 'prices.changed' },
    system: {
      type: 'boolean',
      default: false,
      description: 'Subscribe on the platform plane (subjects shared by every deployment) rather than this deployment’s own.',
    },
    pollWait: {
      type: 'duration',
      description: 'How long one receive waits for a message; defaults to the platform’s topics.pollTimeoutSeconds.',
      hidden: true,
    },
  },
  example: `source:
  type: topic
  subject: prices.changed`,
});
