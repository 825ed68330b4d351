import type { PlatformEventFeed } from '../events.ts';
import type { Features } from '../features.ts';
import type { QueueDelivery, QueueStore } from '../store/queue-store.ts';
import { WaitingReceivers, type PendingReceive } from './waiting-receivers.ts';

/**
 * Moves queue messages from publishers to waiting receivers: publish stores and wakes the
 * subject's consumer groups in process; a receive takes what is visible or waits. It also
 * knows whether anyone consumes a subject, which request/reply needs for its 503.
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
  ) {
    this.waiting = new WaitingReceivers((key) => {
      const [subject, group] = splitKey(key);
      return store.nextVisibleAt(subject, group);
    });
    // A consumer busy with a batch is still consuming; it comes back within its ack deadline.
    this.consumerGraceMs = features.queues.ackDeadlineSeconds * 1000;
  }

  publish(subject: string, body: string, headers: string | null, replyTo?: string): string {
    const { messageId, groups } = this.store.publish(subject, body, headers, replyTo);
    this.published(subject, messageId, groups, body, replyTo);
    return messageId;
  }

  /** Like publish, in a group commit (the publish route): resolves once the message is durable. */
  async publishCommitted(subject: string, body: string, headers: string | null): Promise<string> {
    const { messageId, groups } = await this.store.publishCommitted(subject, body, headers);
    this.published(subject, messageId, groups, body);
    return messageId;
  }

  private published(subject: string, messageId: string, groups: string[], body: string, replyTo?: string): void {
    if (this.events.active) {
      this.events.emit({ type: 'queue.publish', at: Date.now(), subject, messageId, consumerGroups: groups, body: JSON.parse(body), ...(replyTo ? { replyTo } : {}) });
    }
    for (const group of groups) this.waiting.wake(queueKey(subject, group));
  }

  receive(subject: string, group: string, waitMs: number, maxMessages: number, ackDeadlineMs: number): PendingReceive<QueueDelivery> {
    if (!this.store.hasGroup(subject, group)) this.store.addGroup(subject, group);
    this.lastSeen.set(subject, Date.now());
    const pending = this.waiting.receive(queueKey(subject, group), waitMs, () => {
      const batch = this.store.claim(subject, group, maxMessages, ackDeadlineMs);
      if (this.events.active) {
        for (const d of batch) {
          const type = d.deliveryCount > 1 ? 'queue.redeliver' : 'queue.deliver';
          this.events.emit({ type, at: Date.now(), subject, consumerGroup: group, messageId: d.messageId, deliveryCount: d.deliveryCount });
        }
      }
      return batch;
    });
    void pending.result.finally(() => this.lastSeen.set(subject, Date.now())).catch(() => {});
    return pending;
  }

  ack(subject: string, handles: string[]): void {
    const settled = this.store.ack(subject, handles);
    if (this.events.active) {
      for (const s of settled) this.events.emit({ type: 'queue.ack', at: Date.now(), subject, consumerGroup: s.group, messageId: s.messageId });
    }
  }

  nack(subject: string, handles: string[], delaySeconds: number): void {
    const settled = this.store.nack(subject, handles, delaySeconds * 1000);
    for (const s of settled) {
      if (this.events.active) this.events.emit({ type: 'queue.nack', at: Date.now(), subject, consumerGroup: s.group, messageId: s.messageId, delaySeconds });
      // Waiters take it now (no delay) or arm a timer for when the delay ends.
      this.waiting.wake(queueKey(subject, s.group));
    }
  }

  /** Someone receives on the subject now, or did within the grace period. */
  hasConsumers(subject: string): boolean {
    for (const group of this.store.groupsOf(subject)) if (this.waiting.has(queueKey(subject, group))) return true;
    const seen = this.lastSeen.get(subject);
    return seen !== undefined && Date.now() - seen < this.consumerGraceMs;
  }
}

const queueKey = (subject: string, group: string): string => `${subject}\0${group}`;
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('\0');
  return [key.slice(0, i), key.slice(i + 1)];
};
