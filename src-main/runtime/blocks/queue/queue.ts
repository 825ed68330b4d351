import { implementSource } from '../../core/component.ts';
import type { FlowResult } from '../../core/engine/chain.ts';
import type { Delivery } from '../../services/platform-services.ts';
import { AckBatcher } from './ack-batcher.ts';
import { Consumer } from './queue-consumer.ts';
import { queueSourceDef } from './queue.def.ts';
import { deliveryMessage, toWire } from './wire-message.ts';
import { deadlineHold } from './deadline-hold.ts';
import { runFailureLogFor } from '../../core/run-failure-log.ts';

/** The reply header that tells a `queue-request` how the consumer's flow ended. */
export const OUTCOME_HEADER = 'x-flow-outcome';

export const queueSource = implementSource(queueSourceDef, (s, ctx) => {
  const refusal = ctx.host.services.refusalAtLoad('queues', 'a queue source');
  if (refusal) throw new Error(refusal);
  const queues = ctx.host.services.queues;
  const acks = new AckBatcher((handles) => queues.ack(s.subject, handles), Math.max(1, queues.maxBatch));
  // Nobody waits on a plain message's run: without this line its failure is only a nack.
  const failures = runFailureLogFor(ctx);

  const settle = async (d: Delivery, result: FlowResult): Promise<void> => {
    if (d.replyTo !== undefined) {
      // The caller waits for this answer; redelivering a request it already got would answer twice.
      const headers = { [OUTCOME_HEADER]: result.outcome };
      const wire =
        result.outcome === 'failed'
          ? { body: { error: ctx.host.redact(result.error?.message ?? 'the flow failed') }, headers }
          : toWire(result.outcome === 'dropped' ? null : result.message.body, result.message.correlationId, headers);
      await queues.reply(d.replyTo, wire.body, wire.headers).catch((err: unknown) => {
        ctx.log.debug('reply not delivered (the caller may have timed out)', { subject: s.subject, error: (err as Error).message });
      });
      await acks.add(d.handle);
      return;
    }
    if (result.outcome !== 'failed') return acks.add(d.handle);
    failures?.report(result.error, { source: { source: 'queue', subject: s.subject }, next: 'redelivered', deliveryCount: d.deliveryCount, retryInMs: s.nackDelay });
    await queues.nack(s.subject, [d.handle], s.nackDelay);
  };

  const consumer = new Consumer({
    capacity: ctx.capacity,
    maxBatch: queues.maxBatch,
    waitMs: s.pollWait ?? queues.pollTimeoutMs,
    receive: (o) => queues.receive(s.subject, o),
    toMessage: (d) => deliveryMessage(d, s.subject),
    submit: (msg) => ctx.submit(msg),
    settle,
    log: ctx.log,
    clock: ctx.host.clock,
    hold: (d) => deadlineHold(ctx.host.clock, (seconds) => queues.extend?.(s.subject, [d.handle], seconds) ?? Promise.resolve(false), ctx.log),
  });
  return {
    async start() {
      consumer.start();
    },
    async stop() {
      await consumer.stop();
      // Messages still running finish and settle after stop: the summary waits to count them too.
      if (failures) void consumer.idle().then(() => failures.flush());
    },
    describe: () => ({ subject: s.subject, consumerGroup: ctx.host.services.identity.deploymentId }),
  };
});
