import type pg from 'pg';
import type { CrossReplicaWakeups, Wakeup } from '../platform-store.ts';
import { createClient } from './postgres-connection.ts';

/** The channel every replica LISTENs on; the payload is a JSON array naming what to wake. */
export const WAKE_CHANNEL = 'flow_platform';

/**
 * LISTEN/NOTIFY as a wake-up only. A publish, a nack or a reply on one replica notifies in its
 * own transaction (delivered at commit); every replica's listener wakes the long polls it holds
 * under that key, and those re-read the tables. A lost notification (the listener reconnecting)
 * costs latency, never a message: after a reconnect every waiting receive looks again (`all`),
 * and a waiting receive still ends at its deadline and is retried.
 */
export class PostgresWakeups implements CrossReplicaWakeups {
  private readonly listeners = new Set<(w: Wakeup) => void>();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly onError: (err: Error) => void,
    /** This replica's name in the wake-ups it sends itself (see PostgresQueues): those are skipped here. */
    private readonly origin: string,
  ) {}

  async start(): Promise<void> {
    await this.listen();
  }

  private async listen(): Promise<void> {
    const client = createClient(this.url);
    client.on('notification', (msg) => {
      if (msg.channel !== WAKE_CHANNEL || !msg.payload) return;
      const w = parseWakeup(msg.payload, this.origin);
      if (w) this.emit(w);
    });
    client.on('error', (err) => {
      if (this.client !== client) return; // failing to connect: listen() rejects instead
      this.onError(new Error(`the PostgreSQL wake-up listener lost its connection (${err.message}); reconnecting`));
      this.reconnectSoon(client);
    });
    client.on('end', () => this.reconnectSoon(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${WAKE_CHANNEL}`);
    } catch (err) {
      client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  subscribe(listener: (wakeup: Wakeup) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private emit(w: Wakeup): void {
    for (const listener of this.listeners) listener(w);
  }

  private reconnectSoon(dead: pg.Client): void {
    if (this.closed || this.client !== dead) return;
    this.client = undefined;
    dead.end().catch(() => {});
    this.listenAgain(200);
  }

  private listenAgain(delayMs: number): void {
    this.retry = setTimeout(() => {
      if (this.closed) return;
      this.listen().then(
        () => this.emit({ kind: 'all' }),
        (err: unknown) => {
          this.onError(err as Error);
          this.listenAgain(1000);
        },
      );
    }, delayMs);
  }

}

function parseWakeup(payload: string, origin: string): Wakeup | undefined {
  try {
    const v = JSON.parse(payload) as unknown[];
    // A publish or nack of this replica: its receivers were woken in process already.
    if (v[0] === 'q' && v[3] === origin) return undefined;
    if (v[0] === 'q' && typeof v[1] === 'string' && typeof v[2] === 'string') return { kind: 'queue', subject: v[1], group: v[2] };
    if (v[0] === 't' && typeof v[1] === 'string' && typeof v[2] === 'string') return { kind: 'topic', plane: v[1], subject: v[2] };
    if (v[0] === 'r' && typeof v[1] === 'string') return { kind: 'reply', replyTo: v[1] };
    if (v[0] === 'u' && typeof v[1] === 'string') return { kind: 'unsubscribed', subscriptionId: v[1] };
  } catch {
    // not ours
  }
  return undefined;
}
