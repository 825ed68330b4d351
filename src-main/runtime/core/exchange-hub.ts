import { TraceAdmission } from './trace-admission.ts';

/**
 * What a server-side connector saw of one request and its answer: enough to show it, search it
 * and send it again byte for byte. Plain data; bodies are the exact bytes.
 */
export interface HttpExchangeRecord {
  connector: string;
  /** The flow whose route answered; absent when no route matched (404, 405). */
  flow?: string;
  /** The route pattern, e.g. `/orders/{id}`. */
  route?: string;
  method: string;
  /** Path and query as the client sent them. */
  target: string;
  /** Header pairs in the order received, names as sent. */
  requestHeaders: Array<[string, string]>;
  /** The body the route read; absent when it was never read (refused before, or too large). */
  requestBody?: Uint8Array;
  correlationId?: string;
  /** The event stream's address, on SSE routes. */
  stream?: string;
  status: number;
  responseHeaders: Array<[string, string]>;
  /** The first bytes of the response body (see `responseBytes` for the whole size). */
  responseBody: Uint8Array;
  responseBytes: number;
  startedAt: number;
  durationMs: number;
  /** `client-closed`: the caller went away before the answer was complete (or closed its stream). */
  ended: 'finished' | 'client-closed';
}

/** One frame written to an event stream, heartbeats included. */
export interface SseFrameRecord {
  connector: string;
  flow?: string;
  stream?: string;
  /** The frame as written, e.g. `event: progress\ndata: {…}\n\n`. */
  frame: string;
  at: number;
}

export interface ExchangeObserver {
  exchange?(record: HttpExchangeRecord): void;
  sseFrame?(record: SseFrameRecord): void;
}

/**
 * Lets a host (the studio) watch the traffic of a runtime's servers. Connectors read `active`
 * before recording anything, so with nobody watching a request costs one property read.
 */
export class ExchangeHub {
  private readonly observers = new Set<ExchangeObserver>();
  active = false;

  /** `admission`: the trace hub's, so a request's exchange and its run are kept or shed together. */
  constructor(readonly admission: TraceAdmission = new TraceAdmission()) {}

  add(observer: ExchangeObserver): () => void {
    this.observers.add(observer);
    this.active = true;
    return () => {
      this.observers.delete(observer);
      this.active = this.observers.size > 0;
    };
  }

  exchange(record: HttpExchangeRecord): void {
    for (const o of this.observers) {
      try {
        o.exchange?.(record);
      } catch {
        // A failing observer must never fail the request it watches.
      }
    }
  }

  sseFrame(record: SseFrameRecord): void {
    for (const o of this.observers) {
      try {
        o.sseFrame?.(record);
      } catch {
        // As above.
      }
    }
  }
}
