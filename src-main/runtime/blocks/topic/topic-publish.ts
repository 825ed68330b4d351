import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { renderHeaders, toWire } from '../queue/wire-message.ts';
import { topicPublishDef } from './topic-publish.def.ts';
import { platformCall } from '../platform-call.ts';

export const topicPublish = implementBlock(topicPublishDef, (s, ctx) => ({
  async process(msg, run) {
    const body = await s.body.evaluate(activationOf(msg));
    const headers = await renderHeaders(s.headers, msg);
    await platformCall(run, msg.correlationId, 'topic.publish', { subject: s.subject }, (spanId) => {
      const wire = toWire(body, msg.correlationId, headers, run, spanId);
      return ctx.host.services.topics.publish(s.subject, wire.body, { system: s.system, headers: wire.headers });
    });
    return msg;
  },
}));
