import { performance } from 'node:perf_hooks';
import type { SecretRedactor } from './logger.ts';
import type { TraceRecord } from '../../../shared/trace-record.ts';
import type { TraceSpan } from '../../../shared/trace-span.ts';
import { TraceAdmission } from './trace-admission.ts';

/**
 * Defined in shared/ (the wire and the renderer take the same shapes); the runtime's modules
 * import them from here. A TraceSpan is a call a step made while it ran (an outbound HTTP
 * request, a platform call), reported into its run's trace so an inspector can show it under the step.
 */
export type { TraceRecord, TraceSpan };

/**
 * A duration in ms rounded to the microsecond: finer digits are timer noise, and the 17-digit
 * fraction would be most of a record's bytes once serialized.
 */
export function toMicros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

export interface TraceSink {
  /** Ask for input/output snapshots of every step (costs a copy per step). */
  snapshots?: boolean;
  /**
   * Takes events before the hub masks secrets in them, promising to mask whatever it passes on
   * (an exporter masks the serialized batch once, far cheaper than a deep copy per event).
   */
  unredacted?: boolean;
  emit(event: TraceRecord): void;
  /** Receives calls made by steps; sinks without it are never asked to build one. */
  span?(span: TraceSpan): void;
  /**
   * False: span() takes only calls made by steps, never the request an http route answered
   * (kind `server`). Where no sink takes those, none is built and a run joins its caller directly.
   */
  serverSpans?: boolean;
}

/**
 * Fans trace events out to whoever listens. `active` is read on the hot path: with no sink, a
 * step costs nothing beyond the call itself.
 */
export class TraceHub {
  private readonly sinks = new Set<TraceSink>();
  active = false;
  snapshots = false;
  /** True while some sink takes spans; callers check it before building one. */
  spans = false;
  /** True while some sink takes the server span of a request an http route answered. */
  serverSpans = false;
  /** Applied to every event before a sink sees it; secrets never reach the trace view. */
  redactor: SecretRedactor | undefined;

  /** `admission`: which runs are traced while the request thread is saturated; shared with the exchange hub. */
  constructor(readonly admission: TraceAdmission = new TraceAdmission()) {}

  add(sink: TraceSink): () => void {
    this.sinks.add(sink);
    this.refresh();
    return () => {
      this.sinks.delete(sink);
      this.refresh();
    };
  }

  emit(event: TraceRecord): void {
    // What the sinks do with a record is tracing's cost to this thread (the studio's stores, the redactor's walk).
    const t0 = performance.now();
    // Masked once, and only when some sink takes masked events.
    let masked: TraceRecord | undefined;
    for (const s of this.sinks) {
      try {
        if (s.unredacted === true || !this.redactor || this.redactor.size === 0) s.emit(event);
        else s.emit((masked ??= this.redactor.redactValue(event) as TraceRecord));
      } catch {
        // A failing listener must never fail the flow it observes.
      }
    }
    this.admission.charge(performance.now() - t0);
  }

  span(span: TraceSpan): void {
    if (!this.spans) return;
    const t0 = performance.now();
    let masked: TraceSpan | undefined;
    const server = span.kind === 'server';
    for (const s of this.sinks) {
      if (!s.span || (server && s.serverSpans === false)) continue;
      try {
        if (s.unredacted === true || !this.redactor || this.redactor.size === 0) s.span(span);
        else s.span((masked ??= this.redactor.redactValue(span) as TraceSpan));
      } catch {
        // As with events: the flow never fails because of who watches it.
      }
    }
    this.admission.charge(performance.now() - t0);
  }

  private refresh(): void {
    this.active = this.sinks.size > 0;
    this.snapshots = [...this.sinks].some((s) => s.snapshots === true);
    this.spans = [...this.sinks].some((s) => typeof s.span === 'function');
    this.serverSpans = [...this.sinks].some((s) => typeof s.span === 'function' && s.serverSpans !== false);
  }
}
