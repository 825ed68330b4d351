/** A message as one consumer group receives it. `body` is the JSON text stored at publish. */
export interface QueueDelivery {
  id: number;
  messageId: string;
  group: string;
  body: string;
  headers: string | null;
  replyTo: string | null;
  publishedAt: number;
  deliveryCount: number;
  /** What the consumer sends back to ack or nack this delivery, and only this one. */
  handle: string;
}

export interface SettledDelivery {
  group: string;
  messageId: string;
}

export interface Published {
  messageId: string;
  /** The consumer groups that got the message (none when the subject has no group yet). */
  groups: readonly string[];
}

/**
 * Queue messages (§3.3): every consumer group sees every message; inside a group, a delivery
 * goes to one receiver and stays invisible until its ack deadline, an ack removes it, a nack or
 * the deadline makes it visible again. A handle settles the delivery it came with and no later
 * one. A group comes into being on its first receive; messages published before the subject had
 * any group wait for the first one. A publish resolves once the message is durable.
 */
export interface QueueStore {
  publish(subject: string, body: string, headers: string | null, replyTo?: string): Promise<Published>;
  /** Makes the group exist (a no-op when it does) and records that it receives now. */
  joinGroup(subject: string, group: string): Promise<void>;
  groupsOf(subject: string): Promise<readonly string[]>;
  /** Takes up to `limit` visible messages for the group, invisible to others for `ackDeadlineMs`. */
  claim(subject: string, group: string, limit: number, ackDeadlineMs: number): Promise<QueueDelivery[]>;
  /** When the group's next invisible message (in flight or nack-delayed) becomes visible, on this process's clock. */
  nextVisibleAt(subject: string, group: string): Promise<number | undefined>;
  ack(subject: string, handles: string[]): Promise<SettledDelivery[]>;
  nack(subject: string, handles: string[], delayMs: number): Promise<SettledDelivery[]>;
  /** Pushes the deadline of current deliveries to `deadlineMs` from now; stale handles change nothing. Resolves to how many moved. */
  extend(subject: string, handles: string[], deadlineMs: number): Promise<number>;
  /** Removes a finished request's message from every group: nobody waits for its reply any more. */
  dropRequest(replyTo: string): Promise<void>;
  /** When any replica last saw a receive on the subject (undefined: this store only knows its own process). */
  lastReceiveAt(subject: string): Promise<number | undefined>;
  /** Request/reply across replicas; absent when every request is answered by the process holding it. */
  readonly replies?: ReplyExchange;
}

/** Pending requests and their replies, for a reply posted to another replica than the one holding the request. */
export interface ReplyExchange {
  open(replyTo: string, subject: string): Promise<void>;
  close(replyTo: string): Promise<void>;
  /** Takes the right to answer the request (the first reply, on any replica, wins); false when it is gone. */
  claim(replyTo: string): Promise<boolean>;
  /** Stores the reply for the replica holding the request; false when no such request is pending. */
  deliver(replyTo: string, body: string, headers: string | null): Promise<boolean>;
  /** Takes a stored reply (once). */
  take(replyTo: string): Promise<{ body: string; headers: string | null } | undefined>;
}

/** A handle as the receive gave it, `<row id>.<receipt>`; undefined when it cannot be one. */
export function parseHandle(handle: string): { id: number; receipt: string } | undefined {
  const dot = handle.indexOf('.');
  const id = Number(handle.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(id)) return undefined;
  return { id, receipt: handle.slice(dot + 1) };
}
