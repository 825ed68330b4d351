import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { queuePublishDef } from './queue-publish.def.ts';
import { renderHeaders, toWire } from './wire-message.ts';
import { platformCall } from '../platform-call.ts';

export const queuePublish = implementBlock(queuePublishDef, (s, ctx) => ({
  async process(msg, run) {
    const body = await s.body.evaluate(activationOf(msg));
    const wire = toWire(body, msg.correlationId, await renderHeaders(s.headers, msg), run);
    await platformCall(run, msg.correlationId, 'queue.publish', { subject: s.subject }, () => ctx.host.services.queues.publish(s.subject, wire.body, wire.headers));
    return msg;
  },
}));
