import { systemClock, type Clock } from '../../../../shared/clock.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import type { Message } from '../../core/message.ts';
import { runHolds } from '../../core/run-hold.ts';
import type { FlowResult } from '../../core/engine/chain.ts';
import type { Delivery, ReceiveOptions } from '../../services/platform-services.ts';
import { sleep } from '../../services/deliveries.ts';

export interface ConsumerOptions {
  /** Messages taken at once: the flow's workers plus buffer. */
  capacity: number;
  maxBatch: number;
  waitMs: number;
  receive(options: ReceiveOptions): Promise<Delivery[]>;
  toMessage(d: Delivery): Message;
  submit(msg: Message): Promise<FlowResult>;
  /** Settles one delivery once its flow finished (ack, nack, reply). */
  settle(d: Delivery, result: FlowResult): Promise<void>;
  log: Logger;
  /** The backoff after a failed receive and the pause after an answer that came too soon run on it. */
  clock?: Clock;
  /** What keeps a delivery while its run is paused in a debugger (its ack deadline extended). */
  hold?(d: Delivery): { paused(): void; resumed(): void };
}

const MAX_BACKOFF_MS = 5000;

/**
 * The receive loop shared by the queue and topic sources: long-poll for as many messages as
 * the flow has room for, run each, settle it when its flow ends. Stop ends the poll at once;
 * messages already running finish and are settled.
 */
export class Consumer {
  private controller: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private inFlight = 0;
  private wake: (() => void) | undefined;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(private readonly o: ConsumerOptions) {}

  get running(): number {
    return this.inFlight;
  }

  start(): void {
    if (this.controller) return;
    this.controller = new AbortController();
    this.loop = this.run(this.controller.signal);
  }

  async stop(): Promise<void> {
    this.controller?.abort();
    this.wake?.();
    await this.loop;
    this.controller = undefined;
    this.loop = undefined;
  }

  /** Resolves once no message is running (each settled): what a source waits for before its last word on them. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private async run(signal: AbortSignal): Promise<void> {
    const clock = this.o.clock ?? systemClock;
    let backoff = 200;
    let lastProblem: string | undefined;
    while (!signal.aborted) {
      const room = this.o.capacity - this.inFlight;
      if (room <= 0) {
        await new Promise<void>((r) => (this.wake = r));
        // Workers finishing together free several slots: one receive then asks for all of them.
        await new Promise((r) => setImmediate(r));
        continue;
      }
      let batch: Delivery[];
      const asked = clock.now();
      try {
        batch = await this.o.receive({ waitMs: this.o.waitMs, maxMessages: Math.min(room, this.o.maxBatch), signal });
        backoff = 200;
        lastProblem = undefined;
      } catch (err) {
        if (signal.aborted) break;
        // The same failure again (a platform that stays away) is said once, not every retry.
        const problem = errorMessage(err);
        if (problem !== lastProblem) this.o.log.warn('receive failed; retrying until it works again', { error: problem });
        lastProblem = problem;
        await sleep(backoff, signal, clock);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      for (const d of batch) this.handle(d);
      // A platform that answers "nothing" at once instead of holding the poll would make this a
      // busy loop (spec 1 §4.3 rule 3); pause instead.
      if (batch.length === 0 && clock.now() - asked < Math.min(this.o.waitMs, 1000) / 2) await sleep(250, signal, clock);
    }
  }

  private handle(d: Delivery): void {
    this.inFlight++;
    const msg = this.o.toMessage(d);
    if (runHolds.watching !== 0) runHolds.note(msg, { headers: d.headers, ...(this.o.hold ? { whilePaused: this.o.hold(d) } : {}) });
    void this.o
      .submit(msg)
      .then((result) => this.o.settle(d, result))
      .catch((err: unknown) => this.o.log.warn('could not settle a message; it will be delivered again', { error: errorMessage(err) }))
      .finally(() => {
        this.inFlight--;
        const wake = this.wake;
        this.wake = undefined;
        wake?.();
        if (this.inFlight === 0) for (const r of this.idleWaiters.splice(0)) r();
      });
  }
}
