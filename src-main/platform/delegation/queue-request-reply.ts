import { randomBytes } from 'node:crypto';
import { ApiError, notFound } from '../http/api-error.ts';
import { queueReply, queueRequest } from '../../../shared/platform-api/queues.ts';
import { implement } from '../http/contract-route.ts';
import { sendEmpty, sendJson } from '../http/http-io.ts';
import { checkName } from '../http/headers-and-names.ts';
import type { Route } from '../http/router.ts';
import type { PlatformContext } from './platform-context.ts';
import type { QueueDispatch } from './queue-dispatch.ts';
import { messageText, type MessageText } from './queue-messages.ts';

type Outcome = 'replied' | 'timeout' | 'abandoned';

interface PendingRequest {
  subject: string;
  finish: (outcome: Outcome, reply?: MessageText) => void;
}

/**
 * Request/reply over a queue (§4.3 rule 2): the request is published with a `replyTo`, held
 * open until a consumer posts to /v1/queues/reply or `timeoutSeconds` pass (504). With nobody
 * consuming the subject it is refused at once (503). Pending requests live in memory: a
 * request cannot outlive the connection that waits for it, and its message is withdrawn from
 * the queue when it ends, so a late consumer never works on an answered or abandoned request.
 *
 * With several replicas (PostgreSQL), the reply may reach a replica other than the one holding
 * the request: that replica hands it to the store's reply exchange, which records it and wakes
 * the holder (`replyArrived`), who takes it from there.
 */
export class RequestReply {
  private readonly pending = new Map<string, PendingRequest>();
  private closed = false;

  constructor(
    private readonly p: PlatformContext,
    private readonly dispatch: QueueDispatch,
  ) {}

  routes(): Route[] {
    const q = this.p.features.queues;
    const binding = { capability: q.supported ? 'queues.requestReply' : 'queues', enabled: q.supported && q.requestReply };
    // The message's JSON plus its headers and the request's own fields.
    const messageLimit = { maxBytes: q.maxMessageBytes + 64 * 1024 };
    return [
      implement(queueRequest, binding, async (ctx) => {
        const subject = checkName(ctx.params.subject, 'the subject');
        const body = await ctx.json();
        const message = messageText(body, q.maxMessageBytes, subject);
        const timeoutSeconds = Math.min(body.timeoutSeconds ?? 30, q.maxRequestTimeoutSeconds);
        if (!(await this.dispatch.hasConsumers(subject))) {
          throw new ApiError(503, 'no_consumers', `nobody is consuming "${subject}": no receive on it in the last ${q.ackDeadlineSeconds} s`);
        }
        const reply = await this.await(subject, message, timeoutSeconds * 1000, ctx.res);
        sendJson(ctx.res, 200, `{"body":${reply.body}${reply.headers ? `,"headers":${reply.headers}` : ''}}`);
      }, messageLimit),
      implement(queueReply, binding, async (ctx) => {
        const body = await ctx.json();
        const { replyTo } = body;
        const request = this.pending.get(replyTo);
        const missing = (): ApiError =>
          notFound('request_not_found', `no request is waiting for reply ${replyTo}: it was answered already, timed out or its caller went away`);
        const exchange = this.p.queues.replies;
        const reply = messageText(body, q.maxMessageBytes, request?.subject ?? 'the reply');
        if (!exchange) {
          if (!request) throw missing();
          request.finish('replied', reply);
        } else if (request) {
          // Held here, yet another replica may have answered it already: the store decides.
          if (!(await exchange.claim(replyTo))) throw missing();
          request.finish('replied', reply);
        } else if (!(await exchange.deliver(replyTo, reply.body, reply.headers))) {
          throw missing();
        }
        sendEmpty(ctx.res, 204);
      }, messageLimit),
    ];
  }

  /** Another replica recorded the reply to a request this one may hold. */
  replyArrived(replyTo: string): void {
    const request = this.pending.get(replyTo);
    const exchange = this.p.queues.replies;
    if (!request || !exchange) return;
    exchange.take(replyTo).then(
      (reply) => {
        if (reply) request.finish('replied', reply);
      },
      () => {},
    );
  }

  /** Answers every waiting request with 503: the server is stopping. */
  close(): void {
    this.closed = true;
    for (const request of [...this.pending.values()]) request.finish('abandoned');
  }

  private await(subject: string, message: MessageText, timeoutMs: number, res: NodeJS.EventEmitter): Promise<MessageText> {
    const replyTo = `rr-${randomBytes(12).toString('hex')}`;
    return new Promise<MessageText>((resolve, reject) => {
      let published: Promise<unknown> = Promise.resolve();
      const finish = (outcome: Outcome, reply?: MessageText): void => {
        if (!this.pending.delete(replyTo)) return;
        this.p.clock.clearTimeout(timer);
        res.off('close', abandon);
        const { events } = this.p;
        if (events.active) events.emit({ type: 'queue.reply', at: this.p.clock.now(), subject, replyTo, outcome });
        const answer = (): void => {
          if (reply) resolve(reply);
          else if (this.closed) reject(new ApiError(503, 'shutting_down', 'the platform server is shutting down; retry against its next start'));
          else reject(new ApiError(504, 'reply_timeout', `no reply to the request on "${subject}" within ${timeoutMs / 1000} s`));
        };
        // The request's message is withdrawn before the requester hears the outcome, so nobody
        // receives it afterwards (on PostgreSQL, on whichever replica); a publish still on its
        // way to the store is let through first, or its message would outlive the request.
        void published
          .catch(() => {})
          .then(() => Promise.all([this.p.queues.dropRequest(replyTo), this.p.queues.replies?.close(replyTo)]))
          .catch(() => {})
          .finally(answer);
      };
      const abandon = (): void => finish('abandoned');
      const timer = this.p.clock.setTimeout(() => finish('timeout'), timeoutMs);
      res.once('close', abandon);
      this.pending.set(replyTo, { subject, finish });
      const exchange = this.p.queues.replies;
      published = (exchange ? exchange.open(replyTo, subject) : Promise.resolve()).then(() => this.dispatch.publish(subject, message.body, message.headers, replyTo));
      published.catch((err: unknown) => {
        if (!this.pending.delete(replyTo)) return;
        this.p.clock.clearTimeout(timer);
        res.off('close', abandon);
        reject(err as Error);
      });
    });
  }
}
