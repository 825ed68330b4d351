import type { ServerResponse } from 'node:http';
import type { FlowResult } from '../../core/engine/chain.ts';
import type { Message } from '../../core/message.ts';
import { applyResponseHeaders, statusOf } from './response-writer.ts';
import { frameData, HEARTBEAT_FRAME, sseFrame } from './sse-frame.ts';

/** What a route decides about its streams (spec 2 §2.6). */
export interface StreamRules {
  responseHeaders: readonly string[];
  heartbeatMs: number;
  maxDurationMs: number | undefined;
  /** Longest a write may wait for a slow client before the stream is closed (connector writeTimeout). */
  writeTimeoutMs: number | undefined;
  finalEvent: boolean;
  finalEventName: string | undefined;
  closeOnComplete: boolean;
  redact(text: string): string;
}

export type StreamState = 'pending' | 'open' | 'closed';

/**
 * One caller's event stream, through the states of spec 2 §3.1: `pending` (route accepted,
 * nothing written), `open` (first frame committed 200 text/event-stream), `closed`.
 */
export class SseStream {
  state: StreamState = 'pending';
  /** An sse-event ran in the flow's error chain: it, not the connector, answers the failure. */
  errorHandled = false;
  /** Called once when the first frame commits the response. */
  onCommit: (() => void) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private lifetime: NodeJS.Timeout | undefined;

  constructor(
    readonly address: string,
    private readonly res: ServerResponse,
    private readonly rules: StreamRules,
    private readonly onEnd: (stream: SseStream) => void,
  ) {
    // The client going away closes the stream; the flow keeps running (spec 2 §3.1).
    res.once('close', () => this.end(false));
  }

  /**
   * Writes a frame, committing the response first if nothing was written yet; the message that
   * commits decides `vars.httpStatus` and the response headers. Resolves false when nobody is
   * listening any more. Waits while a slow client drains, up to the writeTimeout.
   */
  send(frame: string, msg: Message | undefined): boolean | Promise<boolean> {
    if (this.state === 'closed') return false;
    if (this.state === 'pending') this.commit(msg);
    const flushed = this.res.write(frame);
    this.heartbeat?.refresh();
    return flushed || this.drained();
  }

  /** Ends the stream; a stream nothing was written to yet is committed as an empty event stream. */
  close(msg?: Message): void {
    if (this.state === 'closed') return;
    if (this.state === 'pending') this.commit(msg);
    this.end(true);
  }

  /** The flow ended before any frame: the route answers with an ordinary response instead. */
  discard(): void {
    if (this.state === 'pending') this.end(false);
  }

  /**
   * The flow's own run ended with the stream open: on an unhandled failure an `event: error`
   * frame and close; otherwise the final frame when asked for, and close with closeOnComplete.
   */
  async finish(result: FlowResult): Promise<void> {
    if (this.state !== 'open') return;
    if (result.outcome === 'failed' && !this.errorHandled) {
      const error = this.rules.redact(result.error?.message ?? 'the flow failed');
      await this.send(sseFrame('error', JSON.stringify({ error })), undefined);
      this.close();
      return;
    }
    if (result.outcome === 'completed' && this.rules.finalEvent) {
      await this.send(sseFrame(this.rules.finalEventName, frameData(result.message.body)), undefined);
    }
    if (this.rules.closeOnComplete) this.close();
  }

  private commit(msg: Message | undefined): void {
    const res = this.res;
    if (msg) applyResponseHeaders(res, msg, this.rules.responseHeaders);
    const status = (msg && statusOf(msg.vars.httpStatus)) ?? 200;
    res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    this.state = 'open';
    this.heartbeat = setTimeout(this.ping, this.rules.heartbeatMs).unref();
    if (this.rules.maxDurationMs !== undefined) this.lifetime = setTimeout(() => this.close(), this.rules.maxDurationMs).unref();
    const notify = this.onCommit;
    this.onCommit = undefined;
    notify?.();
  }

  private readonly ping = (): void => {
    if (this.state !== 'open') return;
    this.res.write(HEARTBEAT_FRAME);
    this.heartbeat?.refresh();
  };

  private drained(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const settle = (ok: boolean): void => {
        this.res.off('drain', onDrain);
        this.res.off('close', onClose);
        if (timer) clearTimeout(timer);
        if (!ok) this.end(false, true);
        resolve(ok && this.state !== 'closed');
      };
      const onDrain = (): void => settle(true);
      const onClose = (): void => settle(false);
      const limit = this.rules.writeTimeoutMs;
      const timer = limit ? setTimeout(() => settle(false), limit) : undefined;
      this.res.on('drain', onDrain);
      this.res.on('close', onClose);
    });
  }

  private end(writeEnd: boolean, destroy = false): void {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    if (this.heartbeat) clearTimeout(this.heartbeat);
    if (this.lifetime) clearTimeout(this.lifetime);
    this.onCommit = undefined;
    if (destroy) this.res.destroy();
    else if (writeEnd && wasOpen) this.res.end();
    this.onEnd(this);
  }
}
