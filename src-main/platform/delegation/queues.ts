import { readJsonObject, sendEmpty, sendJson } from '../http/http-io.ts';
import { checkName, optionalCount, optionalSeconds, requiredString, settleHandles } from '../http/request-fields.ts';
import type { Route } from '../http/router.ts';
import { MAX_JSON_BODY_BYTES, type PlatformContext } from './platform-context.ts';
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

  return [
    {
      method: 'POST',
      path: '/v1/queues/{subject}/publish',
      capability: 'queues',
      enabled,
      async handle(ctx) {
        const subject = checkName(ctx.params.subject, 'the subject');
        const message = messageText(await readJsonObject(ctx.req, publishBodyLimit), q.maxMessageBytes, subject);
        // Group commit: this publish shares a WAL commit with the others of this turn; answered after it.
        const messageId = await dispatch.publishCommitted(subject, message.body, message.headers);
        sendJson(ctx.res, 202, `{"messageId":"${messageId}"}`);
      },
    },
    {
      method: 'POST',
      path: '/v1/queues/{subject}/receive',
      capability: 'queues',
      enabled,
      async handle(ctx) {
        const subject = checkName(ctx.params.subject, 'the subject');
        const body = await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES);
        const group = checkName(requiredString(body, 'consumerGroup'), 'consumerGroup');
        const waitSeconds = optionalSeconds(body, 'waitSeconds', q.pollTimeoutSeconds, 0, q.pollTimeoutSeconds);
        const maxMessages = optionalCount(body, 'maxMessages', 1, 1, q.maxBatch);
        const ackDeadlineSeconds = optionalSeconds(body, 'ackDeadlineSeconds', q.ackDeadlineSeconds, 1, MAX_ACK_DEADLINE_SECONDS);
        const pending = dispatch.receive(subject, group, waitSeconds * 1000, maxMessages, ackDeadlineSeconds * 1000);
        ctx.res.once('close', pending.cancel);
        const batch = await pending.result;
        if (batch.length === 0) sendEmpty(ctx.res, 204);
        else sendJson(ctx.res, 200, queueMessagesJson(batch));
      },
    },
    {
      method: 'POST',
      path: '/v1/queues/{subject}/ack',
      capability: 'queues',
      enabled,
      async handle(ctx) {
        const handles = settleHandles(await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES));
        await dispatch.ack(ctx.params.subject, handles);
        sendEmpty(ctx.res, 204);
      },
    },
    {
      method: 'POST',
      path: '/v1/queues/{subject}/nack',
      capability: 'queues',
      enabled,
      async handle(ctx) {
        const body = await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES);
        const handles = settleHandles(body);
        await dispatch.nack(ctx.params.subject, handles, optionalSeconds(body, 'delaySeconds', 0, 0, q.maxDelaySeconds));
        sendEmpty(ctx.res, 204);
      },
    },
  ];
}
