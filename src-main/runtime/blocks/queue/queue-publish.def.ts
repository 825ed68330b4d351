import { defineBlock } from '../../core/component.ts';
import { headersSetting } from './wire-message.ts';

export const queuePublishDef = defineBlock({
  type: 'queue-publish',
  summary: 'Publishes a message to a platform queue subject; one replica of the consuming deployment handles it.',
  description:
    'Point to point work for the flows with a `queue` source on the subject. The publish is never retried (a failure fails the message). The message passes on unchanged.',
  settings: {
    subject: { type: 'string', required: true, description: 'The queue subject.', example: 'orders.created' },
    body: { type: 'cel', default: 'body', description: 'The message body (JSON; raw content travels too).', example: '{"orderId": vars.id}' },
    headers: headersSetting,
  },
  example: `- queue-publish:
    subject: orders.created
    body: '{"orderId": vars.id, "total": body.total}'`,
});
