import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import type { TraceRecord, TraceSpan } from '../core/trace.ts';

/** What every span of this runtime shares: the resource carries `flow.integration` and `flow.deployment`. */
export interface SpanOrigin {
  resource: Resource;
  scope: { name: string; version?: string };
}

/**
 * A run or a step as an OpenTelemetry span. Runs are traced after the fact (the engine reports
 * a step when it ends), so spans are built from the records with the ids the engine gave them
 * rather than started live; the SDK's processor and exporter take them from there.
 */
export function spanOfEvent(e: TraceRecord, origin: SpanOrigin): ReadableSpan | undefined {
  const parts = partsOfEvent(e, origin);
  return parts && readable(parts);
}

/** An outbound HTTP call, a platform call or the request an http route answered. */
export function spanOfCall(s: TraceSpan, origin: SpanOrigin): ReadableSpan | undefined {
  const parts = partsOfCall(s, origin);
  return parts && readable(parts);
}

/**
 * The request an http route answered and the run it started, as one SERVER span: named and timed
 * as the request (`POST /orders`, with the http.* attributes), carrying the run's flow.*
 * attributes, its id (the steps' parent) and the caller as parent. A third fewer spans per
 * request than a server span with the run under it, and what an HTTP server instrumentation
 * would show.
 */
export function spanOfRequestRun(run: TraceRecord, request: TraceSpan, origin: SpanOrigin): ReadableSpan | undefined {
  const r = partsOfEvent(run, origin);
  const s = partsOfCall(request, origin);
  if (!r || !s) return undefined;
  // Assigned one by one: spreading attribute objects (dotted keys) cost more than the span's encoding.
  const attributes = s.attributes;
  for (const key in r.attributes) if (attributes[key] === undefined) attributes[key] = r.attributes[key];
  s.spanId = r.spanId;
  s.attributes = attributes;
  s.error = r.error ?? s.error;
  return readable(s);
}

function partsOfEvent(e: TraceRecord, origin: SpanOrigin): SpanParts | undefined {
  if (!e.traceId || !e.spanId) return undefined;
  let name: string;
  let attributes: Attributes;
  if (e.kind === 'run') {
    name = `flow ${e.flow}`;
    attributes = { 'flow.name': e.flow, 'flow.run_id': e.runId, 'flow.correlation_id': e.correlationId };
  } else {
    // A step's run, correlation id and integration are its run span's (its parent) and the resource's.
    attributes = { 'flow.name': e.flow };
    name = `step ${e.name ?? e.block ?? e.step}`;
    if (e.step) attributes['flow.step'] = e.step;
    if (e.block) attributes['flow.block'] = e.block;
    if (e.name) attributes['flow.step.name'] = e.name;
  }
  attributes['flow.outcome'] = e.outcome;
  const failed = e.outcome === 'failed';
  return {
    name,
    kind: SpanKind.INTERNAL,
    traceId: e.traceId,
    spanId: e.spanId,
    parentSpanId: e.parentSpanId,
    startedAt: e.startedAt,
    durationMs: e.durationMs,
    attributes,
    error: failed ? (e.error ?? 'failed') : undefined,
    origin,
  };
}

function partsOfCall(s: TraceSpan, origin: SpanOrigin): SpanParts | undefined {
  if (!s.traceId || !s.spanId) return undefined;
  const attributes: Attributes = { 'flow.name': s.flow };
  const d = s.detail ?? {};
  let name = s.name;
  let kind = SpanKind.CLIENT;
  let error = s.error;
  if (s.kind === 'http') {
    const method = String(d.method ?? s.name.split(' ')[0]);
    name = method;
    attributes['http.request.method'] = method;
    if (typeof d.url === 'string' && d.url !== '') {
      attributes['url.full'] = d.url;
      const url = safeURL(d.url);
      if (url) {
        attributes['server.address'] = url.hostname;
        attributes['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      }
    }
    if (typeof d.attempts === 'number' && d.attempts > 1) attributes['http.request.resend_count'] = d.attempts - 1;
    if (typeof d.connector === 'string') attributes['flow.connector'] = d.connector;
    // Semantic conventions: a client span fails on 4xx and 5xx.
    if (s.status !== undefined && s.status >= 400) error ??= `answered ${s.status}`;
  } else if (s.kind === 'server') {
    kind = SpanKind.SERVER;
    const method = String(d.method ?? '');
    attributes['http.request.method'] = method;
    if (typeof d.route === 'string') attributes['http.route'] = d.route;
    if (typeof d.path === 'string') attributes['url.path'] = d.path;
    attributes['url.scheme'] = String(d.scheme ?? 'http');
    if (typeof d.userAgent === 'string') attributes['user_agent.original'] = d.userAgent;
  } else if (s.kind === 'debug') {
    // A pause in a debugger: how long the run waited, how it went on, how many edits were made.
    kind = SpanKind.INTERNAL;
    for (const k of ['step', 'action', 'by', 'reason'] as const) if (typeof d[k] === 'string') attributes[`flow.debug.${k}`] = d[k];
    if (Array.isArray(d.edits)) attributes['flow.debug.edits'] = d.edits.length;
  } else {
    attributes['flow.platform.call'] = s.name;
    for (const [k, v] of Object.entries(d)) if (isAttributeValue(v)) attributes[`flow.platform.${k}`] = v;
    // Publishes follow the messaging conventions, so backends draw producer and consumer together.
    if (s.name === 'queue.publish' || s.name === 'topic.publish') {
      kind = SpanKind.PRODUCER;
      name = `send ${String(d.subject)}`;
      attributes['messaging.system'] = 'flow-platform';
      attributes['messaging.operation.type'] = 'send';
      attributes['messaging.destination.name'] = String(d.subject);
    }
  }
  if (s.status !== undefined) attributes['http.response.status_code'] = s.status;
  if (error !== undefined && s.status !== undefined) attributes['error.type'] = String(s.status);
  return { name, kind, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, startedAt: s.startedAt, durationMs: s.durationMs, attributes, error, origin };
}

interface SpanParts {
  name: string;
  kind: SpanKind;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  startedAt: number;
  durationMs: number;
  attributes: Attributes;
  error: string | undefined;
  origin: SpanOrigin;
}

const NO_LINKS: [] = [];
const NO_EVENTS: [] = [];
const UNSET = { code: SpanStatusCode.UNSET };

/**
 * A finished span as the SDK's processor and exporter read it. A class rather than an object
 * literal with a closure: one shape, methods on the prototype, less garbage per span.
 */
class RecordedSpan implements ReadableSpan {
  readonly links = NO_LINKS;
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly duration: HrTime;
  readonly status: ReadableSpan['status'];
  readonly events: TimedEvent[];
  readonly parentSpanContext: SpanContext | undefined;
  readonly resource: Resource;
  readonly instrumentationScope: SpanOrigin['scope'];
  readonly name: string;
  readonly kind: SpanKind;
  readonly attributes: Attributes;
  private readonly context: SpanContext;

  constructor(p: SpanParts) {
    this.name = p.name;
    this.kind = p.kind;
    this.attributes = p.attributes;
    this.context = { traceId: p.traceId, spanId: p.spanId, traceFlags: TraceFlags.SAMPLED };
    this.parentSpanContext = p.parentSpanId ? { traceId: p.traceId, spanId: p.parentSpanId, traceFlags: TraceFlags.SAMPLED } : undefined;
    this.startTime = millisToHrTime(p.startedAt);
    this.duration = millisToHrTime(Math.max(0, p.durationMs));
    this.endTime = addHr(this.startTime, this.duration);
    this.status = p.error === undefined ? UNSET : { code: SpanStatusCode.ERROR, message: p.error };
    this.events = p.error === undefined ? NO_EVENTS : [{ name: 'exception', time: this.endTime, attributes: { 'exception.message': p.error } }];
    this.resource = p.origin.resource;
    this.instrumentationScope = p.origin.scope;
  }

  spanContext(): SpanContext {
    return this.context;
  }
}

function readable(p: SpanParts): ReadableSpan {
  return new RecordedSpan(p);
}

function addHr(a: HrTime, b: HrTime): HrTime {
  const nanos = a[1] + b[1];
  return [a[0] + b[0] + Math.floor(nanos / 1e9), nanos % 1e9];
}

function isAttributeValue(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function safeURL(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
