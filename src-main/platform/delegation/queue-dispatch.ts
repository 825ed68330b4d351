import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import type { Published, QueueDelivery, QueueStore } from '../store/queue-store.ts';
import { WaitingReceivers, type PendingReceive } from './waiting-receivers.ts';
import { parseHeaders } from '../inspect/stored-text.ts';

/**
 * Moves queue messages from publishers to waiting receivers: publish stores and wakes the
 * subject's consumer groups in process (other replicas are woken by the store); a receive
 * takes what is visible or waits. It also knows whether anyone consumes a subject, which
 * request/reply needs for its 503.
 */
export class QueueDispatch {
  readonly waiting: WaitingReceivers<QueueDelivery>;
  /** Last time each subject saw a receive start or finish. */
  private readonly lastSeen = new Map<string, number>();
  private readonly consumerGraceMs: number;

  constructor(
    private readonly store: QueueStore,
    features: Features,
    private readonly events: PlatformEventFeed,
    onError: (err: Error) => void = () => {},
    private readonly clock: Clock = systemClock,
  ) {
    this.waiting = new WaitingReceivers((key) => {
      const [subject, group] = splitKey(key);
      return store.nextVisibleAt(subject, group);
    }, onError, clock);
    // A consumer busy with a batch is still consuming; it comes back within its ack deadline.
    this.consumerGraceMs = features.queues.ackDeadlineSeconds * 1000;
  }

  /** Stores the message (resolving once it is durable) and wakes the groups' waiting receivers. */
  async publish(subject: string, body: string, headers: string | null, replyTo?: string): Promise<string> {
    return this.announce(subject, await this.store.publish(subject, body, headers, replyTo), body, headers, replyTo);
  }

  /** Tells the feed and this process's waiting receivers about a message the store just took. */
  announce(subject: string, published: Published, body: string, headers: string | null, replyTo?: string): string {
    const { messageId, groups } = published;
    if (this.events.active) {
      this.events.emit({ type: 'queue.publish', at: this.clock.now(), subject, messageId, consumerGroups: [...groups], body: JSON.parse(body), headers: parseHeaders(headers), ...(replyTo ? { replyTo } : {}) });
    }
    for (const group of groups) this.waiting.wake(queueKey(subject, group));
    return messageId;
  }

  /** A message became visible for the group on another replica. */
  wakeGroup(subject: string, group: string): void {
    this.waiting.wake(queueKey(subject, group));
  }

  receive(subject: string, group: string, waitMs: number, maxMessages: number, ackDeadlineMs: number): PendingReceive<QueueDelivery> {
    this.lastSeen.set(subject, this.clock.now());
    let joined = false;
    const emit = (batch: QueueDelivery[]): QueueDelivery[] => {
      if (this.events.active) {
        for (const d of batch) {
          const type = d.deliveryCount > 1 ? 'queue.redeliver' : 'queue.deliver';
          this.events.emit({ type, at: this.clock.now(), subject, consumerGroup: group, messageId: d.messageId, deliveryCount: d.deliveryCount });
        }
      }
      return batch;
    };
    const pending = this.waiting.receive(queueKey(subject, group), waitMs, async () => {
      if (!joined) {
        joined = true;
        await this.store.joinGroup(subject, group);
      }
      return emit(await this.store.claim(subject, group, maxMessages, ackDeadlineMs));
    });
    void pending.result.finally(() => this.lastSeen.set(subject, this.clock.now())).catch(() => {});
    return pending;
  }

  async ack(subject: string, handles: string[]): Promise<void> {
    const settled = await this.store.ack(subject, handles);
    if (this.events.active) {
      for (const s of settled) this.events.emit({ type: 'queue.ack', at: this.clock.now(), subject, consumerGroup: s.group, messageId: s.messageId });
    }
  }

  /** Keeps current deliveries invisible for `seconds` more from now (a run paused in a debugger holds them). */
  async extend(subject: string, handles: string[], seconds: number): Promise<void> {
    await this.store.extend(subject, handles, seconds * 1000);
  }

  async nack(subject: string, handles: string[], delaySeconds: number): Promise<void> {
    const settled = await this.store.nack(subject, handles, delaySeconds * 1000);
    for (const s of settled) {
      if (this.events.active) this.events.emit({ type: 'queue.nack', at: this.clock.now(), subject, consumerGroup: s.group, messageId: s.messageId, delaySeconds });
      // Waiters take it now (no delay) or arm a timer for when the delay ends.
      this.waiting.wake(queueKey(subject, s.group));
    }
  }

  /** Someone receives on the subject now, or did within the grace period, on this replica or (by the store's record) another. */
  async hasConsumers(subject: string): Promise<boolean> {
    for (const group of await this.store.groupsOf(subject)) if (this.waiting.has(queueKey(subject, group))) return true;
    const seen = this.lastSeen.get(subject);
    if (seen !== undefined && this.clock.now() - seen < this.consumerGraceMs) return true;
    const elsewhere = await this.store.lastReceiveAt(subject);
    return elsewhere !== undefined && this.clock.now() - elsewhere < this.consumerGraceMs;
  }
}

const queueKey = (subject: string, group: string): string => `${subject}\0${group}`;
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('\0');
  return [key.slice(0, i), key.slice(i + 1)];
};
