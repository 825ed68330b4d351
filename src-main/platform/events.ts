import type { LogRecord, TraceEntry } from '../../shared/platform-api/telemetry.ts';

/**
 * The live feed of everything the platform does, for the studio's panels. Emitters check
 * `active` before building an event, so with nobody listening a feed costs one property read.
 * Events never carry KV values or secrets; queue and topic events carry the JSON message body.
 * `runId` is the run a request named in X-Flow-Run-Id (shared/run-id-header.ts), when it named one.
 */
export type PlatformEvent = { at: number } & (
  | { type: 'kv.put'; namespace: string; key: string; version: number; bytes: number; created: boolean; runId?: string }
  | { type: 'kv.delete'; namespace: string; key: string; runId?: string }
  | { type: 'lease.grant'; kind: LeaseKind; name: string; holder: string; leaseId: string; fencingToken: number; expiresAt: number; previousHolder?: string; runId?: string }
  | { type: 'lease.renew'; kind: LeaseKind; name: string; holder: string; leaseId: string; expiresAt: number }
  | { type: 'lease.release'; kind: LeaseKind; name: string; holder: string; leaseId: string; runId?: string }
  /** `headers`: the headers the message was published with (for in-process listeners; the studio's feed leaves them out). */
  | { type: 'queue.publish'; subject: string; messageId: string; consumerGroups: string[]; body: unknown; headers: Record<string, string>; replyTo?: string }
  | { type: 'queue.deliver' | 'queue.redeliver'; subject: string; consumerGroup: string; messageId: string; deliveryCount: number }
  | { type: 'queue.ack'; subject: string; consumerGroup: string; messageId: string }
  | { type: 'queue.nack'; subject: string; consumerGroup: string; messageId: string; delaySeconds: number }
  | { type: 'queue.reply'; subject: string; replyTo: string; outcome: 'replied' | 'timeout' | 'abandoned' }
  | { type: 'topic.publish'; plane: string; subject: string; messageId: string; body: unknown; headers: Record<string, string> }
  | { type: 'topic.subscribe' | 'topic.unsubscribe' | 'topic.expire'; plane: string; subject: string; subscriptionId: string }
  | { type: 'topic.deliver'; plane: string; subject: string; subscriptionId: string; messageIds: string[] }
  | { type: 'topic.ack'; plane: string; subject: string; subscriptionId: string; cursor: string }
  /** A runtime's trace batch: step and run records and the calls its steps made (shared/platform-api/telemetry.ts). */
  | { type: 'traces'; records: readonly TraceEntry[] }
  | { type: 'logs'; records: readonly LogRecord[] }
);

export type LeaseKind = 'lease' | 'leader';
export type PlatformEventListener = (event: PlatformEvent) => void;

export interface SubscribeOptions {
  /**
   * Also receive `traces` and `logs` batches (default true). A listener that skips them (the
   * studio taps its runtimes' traces directly) spares the platform parsing every batch for it.
   */
  telemetry?: boolean;
}

export class PlatformEventFeed {
  private readonly listeners = new Set<PlatformEventListener>();
  private readonly telemetryListeners = new Set<PlatformEventListener>();

  /** Read before building an event: false means nobody listens and nothing should be built. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** The same for `traces` and `logs` events: someone listens who wants them. */
  get telemetryActive(): boolean {
    return this.telemetryListeners.size > 0;
  }

  /** Listens to every event from now on; returns the function that stops listening. */
  subscribe(listener: PlatformEventListener, options: SubscribeOptions = {}): () => void {
    this.listeners.add(listener);
    if (options.telemetry !== false) this.telemetryListeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      this.telemetryListeners.delete(listener);
    };
  }

  emit(event: PlatformEvent): void {
    const to = event.type === 'traces' || event.type === 'logs' ? this.telemetryListeners : this.listeners;
    for (const listener of to) {
      try {
        listener(event);
      } catch {
        // A failing listener is the listener's problem; the platform keeps serving.
      }
    }
  }
}
