import type { CaptureDetail, CapturePage, CaptureQuery, CaptureSummary, VerificationNote } from '../../../shared/request-types.ts';
import { type HttpExchangeRecord } from '../../runtime/index.ts';
import type { Retention } from '../../../shared/history-types.ts';
import { answerError } from '../traces/run-rejection.ts';
import { SEARCH_TEXT_CHARS, type RunStore } from '../traces/run-store.ts';
import { bodyView, headerOf } from './body-bytes.ts';
import { parseCaptureSearch, type SearchableCapture } from './capture-search.ts';

export interface CapturedExchange {
  id: number;
  integration: string;
  record: HttpExchangeRecord;
  /** Masks the runtime's secret values in what the window is shown. */
  redact: (text: string) => string;
  /** What a search looks through, built on the first search that reaches this capture (most are never searched). */
  searchable?: SearchableCapture;
  verification?: VerificationNote;
  /** Read back from disk with a secret value masked: not the exact bytes that came. */
  masked?: boolean;
}

/** Where captures outlive the process (studio.db): told what changed, in the store's id order. */
export interface CaptureKeeper {
  kept(capture: CapturedExchange): void;
  forgotUpTo(id: number): void;
  cleared(): void;
}

/** The signature a captured request should have carried, when its route verifies and the token is known. */
export type ExpectedSignature = (c: CapturedExchange) => { header: string; value: string } | undefined;

export interface CaptureStoreOptions {
  maxCaptures?: number;
  /** Rough bytes of request and response bodies kept across all captures. */
  maxBytes?: number;
}

/** Captures kept unless the store is told otherwise; the oldest go first. */
export const DEFAULT_MAX_CAPTURES = 2_000;

/** Body characters a search looks through. */
const SEARCH_BODY_CHARS = 64 * 1024;
const NOTES_VERIFY = 'notes-verify-request';

/**
 * Every request that reached a route of a running integration, newest last: the exact request
 * (method, target, headers, body bytes) and the response, bounded by count and bytes. Each is
 * linked to the run it started, through the run store.
 */
export class CaptureStore {
  /** Oldest first from `head`: dropping the oldest moves `head` rather than shifting the array. */
  private captures: CapturedExchange[] = [];
  private head = 0;
  private readonly byId = new Map<number, CapturedExchange>();
  private nextId = 1;
  private bytes = 0;
  private readonly listeners = new Set<(capture: CaptureSummary) => void>();
  private maxCaptures: number;
  private maxBytes: number;
  private keeper: CaptureKeeper | undefined;

  private expectedSignature: ExpectedSignature | undefined;

  constructor(
    private readonly runs: RunStore,
    options: CaptureStoreOptions = {},
  ) {
    this.maxCaptures = options.maxCaptures ?? DEFAULT_MAX_CAPTURES;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  get size(): number {
    return this.captures.length - this.head;
  }

  get storedBytes(): number {
    return this.bytes;
  }

  /** Hands every later change to `keeper` (studio.db). */
  keepWith(keeper: CaptureKeeper): void {
    this.keeper = keeper;
  }

  /** Takes back captures read from disk, oldest first, before any new one arrives. */
  restore(captures: ReadonlyArray<Omit<CapturedExchange, 'searchable'>>): void {
    for (const c of captures) {
      this.captures.push(c);
      this.byId.set(c.id, c);
      this.bytes += sizeOf(c.record);
      this.nextId = Math.max(this.nextId, c.id + 1);
    }
  }

  /** Changes the bounds; captures beyond them go now, oldest first. */
  setRetention(retention: Retention): void {
    this.maxCaptures = retention.count;
    this.maxBytes = retention.bytes;
    this.trim();
  }

  /** How a failed signature check learns the expected signature (set by whoever knows the runtimes). */
  setExpectedSignature(fn: ExpectedSignature): void {
    this.expectedSignature = fn;
  }

  onCapture(listener: (capture: CaptureSummary) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(integration: string, record: HttpExchangeRecord, redact: (text: string) => string): CapturedExchange {
    const id = this.nextId++;
    const capture: CapturedExchange = { id, integration, record, redact };
    this.captures.push(capture);
    this.byId.set(id, capture);
    this.bytes += sizeOf(record);
    this.trim();
    this.keeper?.kept(capture);
    if (record.correlationId !== undefined && record.flow !== undefined) {
      const contentType = headerOf(record.responseHeaders, 'content-type');
      this.runs.linkRequest(record.correlationId, record.flow, {
        captureId: id,
        status: record.status,
        route: record.route,
        path: redact(record.target.split('?')[0]),
        method: record.method,
        startedAt: record.startedAt,
        searchText: exchangeText(record, redact),
        answerError: record.status >= 400 && record.status < 500 ? answerError(record.responseBody, contentType) : undefined,
      });
    }
    const summary = this.summaryOf(capture);
    for (const l of this.listeners) l(summary);
    return capture;
  }

  get(id: number): CapturedExchange | undefined {
    return this.byId.get(id);
  }

  /**
   * The run a capture started, waiting up to `waitMs` for it: the run's record can reach the
   * run store after the capture (its trace events arrive on their own path), and is linked then.
   */
  runOf(captureId: number, waitMs: number): Promise<string | undefined> {
    const now = this.runs.runIdForCapture(captureId);
    if (now !== undefined || waitMs <= 0) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        stop();
        resolve(this.runs.runIdForCapture(captureId));
      };
      const stop = this.runs.onChange(() => {
        if (this.runs.runIdForCapture(captureId) !== undefined) done();
      });
      const timer = setTimeout(done, waitMs);
    });
  }

  query(q: CaptureQuery): CapturePage {
    const test = parseCaptureSearch(q?.search);
    const searching = (q?.search ?? '').trim() !== '';
    const limit = Math.max(1, Math.min(2_000, Number(q?.limit) || 500));
    const rows: CaptureSummary[] = [];
    let total = 0;
    for (let i = this.captures.length - 1; i >= this.head; i--) {
      const c = this.captures[i];
      if (searching && !test((c.searchable ??= searchableOf(c.record, c.redact)))) continue;
      total++;
      if (rows.length < limit) rows.push(this.summaryOf(c));
    }
    return { total, rows };
  }

  detail(id: number): CaptureDetail | undefined {
    const c = this.byId.get(id);
    if (!c) return undefined;
    const r = c.record;
    const redactPairs = (pairs: Array<[string, string]>): Array<[string, string]> => pairs.map(([k, v]) => [k, c.redact(v)]);
    const requestHeaders = redactPairs(r.requestHeaders);
    const responseHeaders = redactPairs(r.responseHeaders);
    const requestBody = bodyView(r.requestBody, headerOf(r.requestHeaders, 'content-type'));
    const responseBody = bodyView(r.responseBody, headerOf(r.responseHeaders, 'content-type'));
    responseBody.bytes = r.responseBytes;
    responseBody.truncated = r.responseBytes > r.responseBody.byteLength;
    if (requestBody.text !== undefined) requestBody.text = c.redact(requestBody.text);
    if (responseBody.text !== undefined) responseBody.text = c.redact(responseBody.text);
    return { ...this.summaryOf(c), requestHeaders, requestBody, responseHeaders, responseBody };
  }

  clear(): void {
    this.captures = [];
    this.head = 0;
    this.byId.clear();
    this.bytes = 0;
    this.keeper?.cleared();
  }

  /** Drops the oldest until the store is within its count and bytes (the newest always stays). */
  private trim(): void {
    let last: number | undefined;
    while (this.captures.length - this.head > 1 && (this.captures.length - this.head > this.maxCaptures || this.bytes > this.maxBytes)) {
      const old = this.captures[this.head];
      this.captures[this.head++] = undefined as unknown as CapturedExchange;
      this.byId.delete(old.id);
      this.bytes -= sizeOf(old.record);
      last = old.id;
    }
    // shift() on a full store copied the whole array once per request while the GC was marking.
    if (this.head > 1_024 && this.head * 2 > this.captures.length) {
      this.captures = this.captures.slice(this.head);
      this.head = 0;
    }
    if (last !== undefined) this.keeper?.forgotUpTo(last);
  }

  summaryOf(c: CapturedExchange): CaptureSummary {
    const r = c.record;
    const s: CaptureSummary = {
      id: c.id,
      integration: c.integration,
      connector: r.connector,
      method: r.method,
      target: c.redact(r.target),
      status: r.status,
      startedAt: r.startedAt,
      durationMs: r.durationMs,
      ended: r.ended,
      requestBytes: r.requestBody?.byteLength ?? 0,
      stream: r.stream !== undefined,
    };
    if (r.flow !== undefined) s.flow = r.flow;
    if (r.route !== undefined) s.route = r.route;
    if (r.correlationId !== undefined) s.correlationId = r.correlationId;
    const runId = this.runs.runIdForCapture(c.id);
    if (runId !== undefined) s.runId = runId;
    const verification = c.verification ?? (runId !== undefined ? this.verificationOf(c) : undefined);
    if (verification) s.verification = verification;
    return s;
  }

  /**
   * Whether the run's verification step (notes-verify-request, jwt-verify) let the request
   * through, in the block's own words: it passed the message on, or rejected the request (a 4xx
   * with `{error: reason}`: no token known, signature mismatch, an invalid JWT), or failed (no
   * raw bytes). Remembered, since old runs lose their steps.
   */
  private verificationOf(c: CapturedExchange): VerificationNote | undefined {
    const found = this.runs.verifyStepForCapture(c.id);
    if (!found) return undefined;
    const step = found.step;
    const block = found.summary.rejection?.block ?? step?.block;
    if (block === undefined) return undefined;
    const notes = block === NOTES_VERIFY;
    const rejection = found.summary.rejection;
    c.verification =
      rejection !== undefined
        ? { ok: false, reason: c.redact(rejection.reason), ...(notes ? this.signaturesOf(c) : {}) }
        : step?.outcome === 'failed'
          ? { ok: false, reason: c.redact(step.error ?? `${block} failed`), ...(notes ? this.signaturesOf(c) : {}) }
          : notes && step?.handshake === true
            ? { ok: true, reason: 'unsigned subscription handshake: the verification token was captured', handshake: true }
            : { ok: true, reason: notes ? 'signature valid' : 'token valid' };
    // Remembered on disk too: after a restart the run's steps may no longer say it.
    this.keeper?.kept(c);
    return c.verification;
  }

  /** Expected and received signature of a request that failed its check, when the token is known. */
  private signaturesOf(c: CapturedExchange): { expected?: string; received?: string } {
    let expected: { header: string; value: string } | undefined;
    try {
      expected = this.expectedSignature?.(c);
    } catch {
      expected = undefined;
    }
    if (!expected) return {};
    const name = expected.header.toLowerCase();
    const received = c.record.requestHeaders.find(([k]) => k.toLowerCase() === name)?.[1] ?? '';
    return { expected: expected.value, received: c.redact(received) };
  }
}

function searchableOf(r: HttpExchangeRecord, redact: (text: string) => string): SearchableCapture {
  const text = (b: Uint8Array | undefined): string => (b && b.byteLength > 0 ? Buffer.from(b.buffer, b.byteOffset, Math.min(b.byteLength, SEARCH_BODY_CHARS)).toString('utf8') : '');
  return {
    path: redact(r.target).toLowerCase(),
    status: r.status,
    headers: redact([...r.requestHeaders, ...r.responseHeaders].map(([k, v]) => `${k}: ${v}`).join('\n')).toLowerCase(),
    body: redact(`${text(r.requestBody)}\n${text(r.responseBody)}`).toLowerCase(),
  };
}

/** A request's header values and bodies as text, for the search of the run it started. */
function exchangeText(r: HttpExchangeRecord, redact: (text: string) => string): string {
  let headers = '';
  for (let i = 0; i < r.requestHeaders.length; i++) headers = i === 0 ? r.requestHeaders[i][1] : `${headers}\n${r.requestHeaders[i][1]}`;
  const text = withPart(withPart(headers, bodyText(r.requestBody, SEARCH_TEXT_CHARS)), bodyText(r.responseBody, SEARCH_TEXT_CHARS / 2));
  return redact(text).slice(0, SEARCH_TEXT_CHARS);
}

/** The first `room` bytes of a body as text; empty for none. */
function bodyText(b: Uint8Array | undefined, room: number): string {
  return b && b.byteLength > 0 ? Buffer.from(b.buffer, b.byteOffset, Math.min(b.byteLength, room)).toString('utf8') : '';
}

/** Parts joined by line breaks, empty ones left out. */
function withPart(text: string, part: string): string {
  return part === '' ? text : text === '' ? part : `${text}\n${part}`;
}

function sizeOf(r: HttpExchangeRecord): number {
  return (r.requestBody?.byteLength ?? 0) + r.responseBody.byteLength + 512;
}
