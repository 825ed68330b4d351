import { implementSource } from '../../core/component.ts';
import type { TopicSubscription } from '../../services/platform-services.ts';
import { AckBatcher } from '../queue/ack-batcher.ts';
import { deadlineHold } from '../queue/deadline-hold.ts';
import { Consumer } from '../queue/queue-consumer.ts';
import { deliveryMessage } from '../queue/wire-message.ts';
import { topicSourceDef } from './topic.def.ts';
import { runFailureLogFor } from '../../core/run-failure-log.ts';

export const topicSource = implementSource(topicSourceDef, (s, ctx) => {
  const refusal = ctx.host.services.refusalAtLoad('topics', 'a topic source');
  if (refusal) throw new Error(refusal);
  const topics = ctx.host.services.topics;
  let subscription: TopicSubscription | undefined;
  let consumer: Consumer | undefined;
  const failures = runFailureLogFor(ctx);

  return {
    async start() {
      subscription = await topics.subscribe(s.subject, { system: s.system });
      const sub = subscription;
      const acks = new AckBatcher((handles) => sub.ack(handles), Math.max(1, topics.maxBatch));
      consumer = new Consumer({
        capacity: ctx.capacity,
        maxBatch: topics.maxBatch,
        waitMs: s.pollWait ?? topics.pollTimeoutMs,
        receive: (o) => sub.receive(o),
        toMessage: (d) => deliveryMessage(d, s.subject),
        submit: (msg) => ctx.submit(msg),
        // No nack on a topic (spec 1 §4.4): the delivery is acknowledged whatever the flow did.
        settle: (d, result) => {
          if (result.outcome === 'failed') failures?.report(result.error, { source: { source: 'topic', subject: s.subject }, next: 'dropped', deliveryCount: d.deliveryCount });
          return acks.add(d.handle);
        },
        log: ctx.log,
        clock: ctx.host.clock,
        // A run paused in a debugger keeps its delivery: the subscription's deadline is pushed on while it waits.
        hold: (d) => deadlineHold(ctx.host.clock, (seconds) => sub.extend?.([d.handle], seconds) ?? Promise.resolve(false), ctx.log),
      });
      consumer.start();
    },
    async stop() {
      const stopped = consumer;
      await stopped?.stop();
      // Messages still running finish and settle after stop: the summary waits to count them too.
      if (failures) void stopped?.idle().then(() => failures.flush());
      await subscription?.close();
      consumer = undefined;
      subscription = undefined;
    },
    describe: () => ({ subject: s.subject, system: s.system, subscription: subscription?.id }),
  };
});
