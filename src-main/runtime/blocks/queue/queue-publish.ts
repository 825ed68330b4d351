import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { queuePublishDef } from './queue-publish.def.ts';
import { renderHeaders, toWire } from './wire-message.ts';
import { platformCall } from '../platform-call.ts';

export const queuePublish = implementBlock(queuePublishDef, (s, ctx) => ({
  async process(msg, run) {
    const body = await s.body.evaluate(activationOf(msg));
    const headers = await renderHeaders(s.headers, msg);
    await platformCall(run, msg.correlationId, 'queue.publish', { subject: s.subject }, (spanId) => {
      const wire = toWire(body, msg.correlationId, headers, run, spanId);
      return ctx.host.services.queues.publish(s.subject, wire.body, wire.headers);
    });
    return msg;
  },
}));
