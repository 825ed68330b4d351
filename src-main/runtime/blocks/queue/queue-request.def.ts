import { defineBlock } from '../../core/component.ts';
import { headersSetting } from './wire-message.ts';

export const queueRequestDef = defineBlock({
  type: 'queue-request',
  summary: 'Sends a request on a queue subject and waits for the consuming flow’s reply.',
  description: [
    'The flow with a `queue` source on the subject runs the request; its final body is the reply, stored in the body (or `resultVar`).',
    'Fails with status 503 in `vars.error.status` when nobody consumes the subject, 504 when no reply comes within `timeout`, and 502 with the consumer’s error when its flow failed. Refused up front, naming the flag, when the platform does not implement request/reply (`queues.requestReply`).',
  ].join('\n\n'),
  settings: {
    subject: { type: 'string', required: true, description: 'The queue subject.', example: 'prices.quote' },
    body: { type: 'cel', default: 'body', description: 'The request body.', example: '{"sku": vars.sku}' },
    headers: headersSetting,
    timeout: { type: 'duration', default: '30s', description: 'How long to wait for the reply.' },
    resultVar: { type: 'string', description: 'Store the reply in `vars.<resultVar>` instead of replacing the body.', example: 'quote' },
  },
  example: `- queue-request:
    subject: prices.quote
    body: '{"sku": vars.sku}'
    timeout: 5s
    resultVar: quote`,
});
