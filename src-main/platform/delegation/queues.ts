import { badRequest } from '../http/api-error.ts';
import { queueAck, queueExtend, queueNack, queuePublish, queueReceive } from '../../../shared/platform-api/queues.ts';
import { implement } from '../http/contract-route.ts';
import { sendEmpty, sendJson } from '../http/http-io.ts';
import { checkName } from '../http/headers-and-names.ts';
import type { Route } from '../http/router.ts';
import type { PlatformContext } from './platform-context.ts';
import type { QueueDispatch } from './queue-dispatch.ts';
import { messageText, queueMessagesJson } from './queue-messages.ts';

const MAX_ACK_DEADLINE_SECONDS = 12 * 3600;

/**
 * Queues (§3.3, §4.3): point-to-point work distribution. Receive long-polls: it answers as soon
 * as a message is visible for its consumer group, or 204 once `waitSeconds` passed empty.
 */
export function queueRoutes(p: PlatformContext, dispatch: QueueDispatch): Route[] {
  const q = p.features.queues;
  const enabled = q.supported;
  const publishBodyLimit = q.maxMessageBytes + 64 * 1024;
  const binding = { capability: 'queues', enabled };

  return [
    implement(queuePublish, binding, async (ctx) => {
      const subject = checkName(ctx.params.subject, 'the subject');
      const message = messageText(await ctx.json(), q.maxMessageBytes, subject);
      // Answered once durable: the store commits it with the other publishes of its turn (group commit).
      const messageId = await dispatch.publish(subject, message.body, message.headers);
      sendJson(ctx.res, 202, `{"messageId":"${messageId}"}`);
    }, { maxBytes: publishBodyLimit }),
    implement(queueReceive, binding, async (ctx) => {
      const subject = checkName(ctx.params.subject, 'the subject');
      const body = await ctx.json();
      const group = checkName(body.consumerGroup, 'consumerGroup');
      const waitSeconds = Math.min(body.waitSeconds ?? q.pollTimeoutSeconds, q.pollTimeoutSeconds);
      const maxMessages = Math.min(body.maxMessages ?? 1, q.maxBatch);
      const ackDeadlineSeconds = Math.min(body.ackDeadlineSeconds ?? q.ackDeadlineSeconds, MAX_ACK_DEADLINE_SECONDS);
      const pending = dispatch.receive(subject, group, waitSeconds * 1000, maxMessages, ackDeadlineSeconds * 1000);
      ctx.res.once('close', pending.cancel);
      const batch = await pending.result;
      if (batch.length === 0) sendEmpty(ctx.res, 204);
      else sendJson(ctx.res, 200, queueMessagesJson(batch));
    }),
    implement(queueAck, binding, async (ctx) => {
      await dispatch.ack(ctx.params.subject, settleHandles(await ctx.json()));
      sendEmpty(ctx.res, 204);
    }),
    implement(queueNack, binding, async (ctx) => {
      const body = await ctx.json();
      await dispatch.nack(ctx.params.subject, settleHandles(body), Math.min(body.delaySeconds ?? 0, q.maxDelaySeconds));
      sendEmpty(ctx.res, 204);
    }),
    implement(queueExtend, binding, async (ctx) => {
      const body = await ctx.json();
      await dispatch.extend(ctx.params.subject, settleHandles(body), Math.min(body.seconds, MAX_ACK_DEADLINE_SECONDS));
      sendEmpty(ctx.res, 204);
    }),
  ];
}

/** Settle handles: `handles`, or a single `handle` for convenience (SettleRequest). */
export function settleHandles(body: { handles?: string[]; handle?: string }): string[] {
  if (body.handles) return body.handles;
  if (body.handle !== undefined) return [body.handle];
  throw badRequest('missing_field', 'the request body needs "handles": an array of the handle strings returned by receive');
}
