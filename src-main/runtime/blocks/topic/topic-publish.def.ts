import { defineBlock } from '../../core/component.ts';
import { headersSetting } from '../queue/wire-message.ts';

export const topicPublishDef = defineBlock({
  type: 'topic-publish',
  summary: 'Publishes a message to a platform topic subject; every subscribed flow receives it.',
  description:
    'Fan-out: each flow with a `topic` source on the subject gets its own copy. Without `system` the subject belongs to this deployment; `system: true` publishes on the platform plane shared by all deployments. The message passes on unchanged.',
  settings: {
    subject: { type: 'string', required: true, description: 'The topic subject.', example: 'prices.changed' },
    body: { type: 'cel', default: 'body', description: 'The message body.', example: '{"sku": vars.sku, "price": body.price}' },
    headers: headersSetting,
    system: { type: 'boolean', default: false, description: 'Publish on the platform plane instead of this deployment’s own.' },
  },
  example: `- topic-publish:
    subject: prices.changed
    body: '{"sku": vars.sku, "price": body.price}'`,
});
