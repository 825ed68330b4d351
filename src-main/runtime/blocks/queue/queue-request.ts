import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { FlowError } from '../../core/errors.ts';
import { QueueRequestError } from '../../services/queue-client.ts';
import { OUTCOME_HEADER } from './queue.ts';
import { queueRequestDef } from './queue-request.def.ts';
import { fromWire, renderHeaders, toWire } from './wire-message.ts';

export const queueRequest = implementBlock(queueRequestDef, (s, ctx) => ({
  async process(msg, run) {
    const body = await s.body.evaluate(activationOf(msg));
    const wire = toWire(body, msg.correlationId, await renderHeaders(s.headers, msg), run);
    let reply;
    try {
      reply = await ctx.host.services.queues.request(s.subject, wire.body, { timeoutMs: s.timeout, headers: wire.headers });
    } catch (err) {
      if (err instanceof QueueRequestError) throw new FlowError(err.message, { status: err.status, cause: err });
      throw err;
    }
    const outcome = reply.headers[OUTCOME_HEADER];
    if (outcome === 'failed') {
      const reason = (reply.body as { error?: unknown } | null)?.error;
      throw new FlowError(`the flow consuming ${s.subject} failed: ${typeof reason === 'string' ? reason : 'no reason given'}`, { status: 502 });
    }
    const value = fromWire(reply.body, reply.headers);
    if (s.resultVar) msg.vars[s.resultVar] = value;
    else msg.body = value;
    return msg;
  },
}));
