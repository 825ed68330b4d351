export interface TopicMessage {
  id: number;
  body: string;
  headers: string | null;
  publishedAt: number;
}

/** A subscription's position in its stream. */
export interface Subscription {
  id: string;
  plane: string;
  subject: string;
  /** Id of the last message acknowledged. */
  cursor: number;
  /** Id of the last message delivered and not yet acknowledged (>= cursor), valid until `deliveredUntil`. */
  delivered: number;
  deliveredUntil: number;
  createdAt: number;
  lastActiveAt: number;
}

/**
 * Topic streams (§3.4), one per plane and subject. A subscription is a cursor that starts at the
 * end of its stream; every subscription sees every later message, in order, none skipped; ack
 * moves the cursor past the delivery; unacked deliveries come again after their deadline.
 */
export interface TopicStore {
  /** Resolves to the message's id in its stream. */
  publish(plane: string, subject: string, body: string, headers: string | null): Promise<number>;
  subscribe(plane: string, subject: string): Promise<Subscription>;
  /** The live subscription, or undefined when it never existed, was removed or has expired. */
  get(id: string): Promise<Subscription | undefined>;
  touch(id: string): Promise<void>;
  unsubscribe(id: string): Promise<Subscription | undefined>;
  /** The next messages: after the in-flight ones while their deadline holds, else after the cursor. */
  take(id: string, limit: number, ackDeadlineMs: number): Promise<TopicMessage[]>;
  /** When unacknowledged deliveries of the subscription become due again. */
  redeliveryAt(id: string): Promise<number | undefined>;
  /** Moves the cursor past the highest delivered message among `ids`; undefined when the subscription is gone. */
  ack(id: string, ids: number[]): Promise<{ before: number; cursor: number } | undefined>;
  /**
   * When one of `ids` is still in flight, pushes the subscription's deadline to `deadlineMs` from
   * now (never nearer); true when it did. A later `take` does not shorten it.
   */
  extend(id: string, ids: number[], deadlineMs: number): Promise<boolean>;
  /** Expires idle subscriptions (those in `receiving` are active) and deletes consumed messages. */
  sweep(receiving: ReadonlySet<string>): Promise<Subscription[]>;
}
