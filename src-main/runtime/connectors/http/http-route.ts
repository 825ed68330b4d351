import { systemClock, type Clock } from '../../../../shared/clock.ts';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FlowResult } from '../../core/engine/chain.ts';
import type { SourceContext } from '../../core/component.ts';
import { formatDuration } from '../../core/duration.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { Message } from '../../core/message.ts';
import { heldTimeout, runHolds } from '../../core/run-hold.ts';
import { BadRequestError } from './bad-request.ts';
import { noteExchange } from './exchange-capture.ts';
import { declaredOver } from '../../../../shared/refused-upload.ts';
import { BodyStalledError, BodyTooLargeError, expectsContinue, readBody, refuseTooLarge } from './request-body.ts';
import { decodeBody, headerValue, queryOf } from './request-message.ts';
import { sendError, sendResult, type ResponseRules } from './response-writer.ts';
import { endsThisTurn } from '../../../../shared/end-of-turn.ts';
import { urlPath, type RoutePattern } from '../../../../shared/route-pattern.ts';
import { counted } from '../../../../shared/counted.ts';
import type { Routable } from './route-table.ts';
import type { SseRegistry } from './sse-registry.ts';
import type { SseStream, StreamRules } from './sse-stream.ts';
import type { TraceHub } from '../../core/trace.ts';
import { serverSpanStart, type ServerSpanStart } from './server-span.ts';

export interface RouteOptions {
  flowName: string;
  pattern: RoutePattern;
  methods: readonly string[] | undefined;
  /** Header names as written; each lands in the variable of that name. */
  headers: readonly string[];
  correlationIdHeader: string | undefined;
  rawBodyVar: string | undefined;
  rawBody: boolean;
  /** 0 waits forever. */
  timeoutMs: number;
  /** What the timeout runs on (a flow test's virtual clock); default the system clock. */
  clock?: Clock;
  maxBodyBytes: number;
  /** The longest pause between body bytes (the connector's). */
  bodyIdleTimeoutMs: number;
  response: ResponseRules;
  /** Set on SSE routes. */
  sse: (StreamRules & { streamVar: string; maxStreams: number | undefined; registry: SseRegistry }) | undefined;
  submit(msg: Message): Promise<FlowResult>;
  /** Like submit, answering synchronously when the run does (see FlowRunner.start). */
  start(msg: Message): FlowResult | Promise<FlowResult>;
  /** Where the request's server span goes, and whose activity decides if trace context is read. */
  traces?: TraceHub;
  /** Traces a request refused before the flow ran (SourceContext.refused). */
  refused?: SourceContext['refused'];
  log: Logger;
}

/**
 * One flow's route: turns a request into the flow's input message and the flow's result into the
 * response (spec 2 §2.2–2.6). Everything refused before the flow runs (405 is the table's; 413,
 * 400, 408, 503 here) never reaches it; each of those is traced as a run of no steps (traceRefusal).
 */
export class HttpRoute implements Routable {
  readonly flowName: string;
  readonly pattern: RoutePattern;
  readonly methods: readonly string[] | undefined;
  /** Set by the source's start/stop; a stopped route answers 503. */
  active = false;
  private openStreams = 0;
  private readonly headerVars: ReadonlyArray<readonly [string, string]>;
  private readonly correlationHeader: string | undefined;

  constructor(private readonly o: RouteOptions) {
    this.flowName = o.flowName;
    this.pattern = o.pattern;
    this.methods = o.methods;
    this.headerVars = o.headers.map((h) => [h, h.toLowerCase()] as const);
    this.correlationHeader = o.correlationIdHeader?.toLowerCase();
  }

  get isStream(): boolean {
    return this.o.sse !== undefined;
  }

  /**
   * Answers the request, whatever happens; never throws. `traced`: whether its run is traced, when
   * the server already decided (it captures the exchange only then); else the run decides. No
   * async function on the way: a flow that answers synchronously is answered in the body's
   * `end` event, with no promise turn (each costs a request ~1% of throughput).
   */
  handle(req: IncomingMessage, res: ServerResponse, params: Record<string, string> | undefined, queryString: string, traced?: boolean): void {
    try {
      this.answer(req, res, params, queryString, traced);
    } catch (err) {
      this.failed(res, err);
    }
  }

  /**
   * Something broke while answering: 500 if nothing was sent yet; a response already answered in
   * full (its bytes go out at the end of the turn) goes out as it is; else the connection is cut.
   */
  private failed(res: ServerResponse, err: unknown): void {
    this.o.log.error('http route failed', { flow: this.flowName, error: errorMessage(err) });
    if (!res.headersSent) sendError(res, 500, 'internal error while answering the request', this.o.response.closeConnection);
    else if (!endsThisTurn(res)) res.destroy();
  }

  private answer(req: IncomingMessage, res: ServerResponse, params: Record<string, string> | undefined, queryString: string, traced: boolean | undefined): void {
    const o = this.o;
    // Refused before `100 Continue` went out: the client will not send its body, so do not wait for it.
    const close = o.response.closeConnection || (req.headers.expect !== undefined && expectsContinue(req));
    if (!this.active) return this.refuse(req, res, 503, `flow "${this.flowName}" is not running`, close, traced);
    if (o.sse?.maxStreams !== undefined && this.openStreams >= o.sse.maxStreams) {
      return this.refuse(req, res, 503, `${this.pattern.text} has ${counted(o.sse.maxStreams, 'open stream')}, its maxStreams; try again later`, close, traced, { 'retry-after': '1' });
    }
    if (declaredOver(req, o.maxBodyBytes)) return this.refuseTooLarge(req, res, traced);
    // The server handles `Expect: 100-continue` itself: the body is invited only now, once it fits.
    if (expectsContinue(req)) res.writeContinue();
    readBody(req, o.maxBodyBytes, o.bodyIdleTimeoutMs, (err, raw) => {
      // A client that stopped sending holds its connection no longer.
      if (err instanceof BodyStalledError) return this.refuse(req, res, 408, err.message, true, traced);
      // Too large while streaming: the rest of the upload is dropped, never read into memory.
      if (err !== undefined) return this.refuseTooLarge(req, res, traced);
      try {
        const pending = this.withBody(req, res, params, queryString, traced, close, raw);
        if (pending !== undefined) pending.catch((e: unknown) => this.failed(res, e));
      } catch (e) {
        this.failed(res, e);
      }
    });
  }

  private withBody(
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string> | undefined,
    queryString: string,
    traced: boolean | undefined,
    close: boolean,
    raw: Buffer,
  ): Promise<void> | undefined {
    if (traced) noteExchange(req, { body: raw });
    const vars = this.varsOf(req, params, queryString, raw);
    let body: unknown;
    try {
      body = decodeBody(raw, req.headers['content-type'], this.o.rawBody);
    } catch (err) {
      return this.refuseBody(req, res, err, close, traced);
    }
    // A multipart body is parsed asynchronously.
    if (body instanceof Promise) return body.then((decoded: unknown) => this.run(req, res, traced, vars, decoded), (err: unknown) => this.refuseBody(req, res, err, close, traced));
    return this.run(req, res, traced, vars, body);
  }

  private refuseBody(req: IncomingMessage, res: ServerResponse, err: unknown, close: boolean, traced: boolean | undefined): undefined {
    if (!(err instanceof BadRequestError)) throw err;
    sendError(res, 400, err.message, close);
    this.traceRefusal(req, err.message, traced);
    return undefined;
  }

  /** Answers a refusal (408, 503) and traces it as a run the flow did not take. */
  private refuse(req: IncomingMessage, res: ServerResponse, status: number, reason: string, close: boolean, traced: boolean | undefined, headers?: Record<string, string>): void {
    sendError(res, status, reason, close, headers);
    this.traceRefusal(req, reason, traced);
  }

  private refuseTooLarge(req: IncomingMessage, res: ServerResponse, traced: boolean | undefined): void {
    refuseTooLarge(req, res, this.o.maxBodyBytes, this.o.bodyIdleTimeoutMs);
    this.traceRefusal(req, new BodyTooLargeError(this.o.maxBodyBytes).message, traced);
  }

  /**
   * A request refused before the flow ran, traced by the flow's runner as a run of no steps whose
   * error says why: without it a webhook sender's bad request left nothing in the traces. Only
   * refusals pay for it; a request the flow takes goes by none of this.
   */
  private traceRefusal(req: IncomingMessage, reason: string, traced: boolean | undefined): void {
    const correlationId = this.o.refused?.(reason, this.correlationIdOf(req), traced);
    // The captured exchange names the run it started, as a run the flow took does.
    if (traced && correlationId !== undefined) noteExchange(req, { correlationId });
  }

  private run(req: IncomingMessage, res: ServerResponse, traced: boolean | undefined, vars: Record<string, unknown>, body: unknown): Promise<void> | undefined {
    const o = this.o;
    const msg = new Message(body, vars, this.correlationIdOf(req));
    if (traced) noteExchange(req, { correlationId: msg.correlationId });
    msg.traced = traced;
    if (runHolds.watching !== 0) runHolds.note(msg, { headers: req.headers });
    // An event stream's request is not reported as a server span (it ends long after its run's
    // answer, off this path): its run joins the caller directly, as with no server spans taken.
    const span = o.traces?.active && (msg.traced ??= o.traces.admission.admit()) ? serverSpanStart(req, msg, o.traces.serverSpans && !o.sse) : undefined;
    if (o.sse) return this.stream(msg, req, res, o.sse);
    const started = o.start(msg);
    if (started instanceof Promise) return this.answerLater(started, req, res, msg, span);
    sendResult(res, started, o.response);
    if (span) this.reportServerSpan(span, req, res, msg, started);
    return undefined;
  }

  /** A run still going: answered when it ends, or 504 first once the route's timeout passes. */
  private async answerLater(running: Promise<FlowResult>, req: IncomingMessage, res: ServerResponse, msg: Message, span: ServerSpanStart | undefined): Promise<void> {
    const o = this.o;
    // The timer answers 504 itself; a result arriving later finds the response sent and is
    // dropped. A run that answered synchronously needs none: no timer could have fired during it.
    // Time the run spends paused in a debugger does not count.
    const timer = o.timeoutMs > 0 ? heldTimeout(o.clock ?? systemClock, msg, o.timeoutMs, () => answerTimeout(this, res)) : undefined;
    const result = await running;
    timer?.clear();
    sendResult(res, result, o.response);
    if (span) this.reportServerSpan(span, req, res, msg, result);
  }

  /** The request as a server span, the parent of the run it started (OpenTelemetry's SERVER span). */
  private reportServerSpan(span: ServerSpanStart, req: IncomingMessage, res: ServerResponse, msg: Message, result: FlowResult): void {
    const hub = this.o.traces;
    if (!hub?.serverSpans) return;
    const status = res.statusCode;
    hub.span({
      kind: 'server',
      flow: this.flowName,
      runId: '',
      correlationId: msg.correlationId,
      name: `${req.method} ${this.pattern.text}`,
      startedAt: span.startedAt,
      durationMs: performance.now() - span.t0,
      status,
      error: status >= 500 ? (result.error?.message ?? `answered ${status}`) : undefined,
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      sampled: span.sampled,
      detail: { method: req.method, route: this.pattern.text, path: urlPath(req.url ?? ''), scheme: 'http', userAgent: req.headers['user-agent'] },
    });
  }

  describe(): Record<string, unknown> {
    return { flow: this.flowName, path: this.pattern.text, methods: this.methods ?? 'any', sse: this.isStream };
  }

  private varsOf(req: IncomingMessage, params: Record<string, string> | undefined, queryString: string, raw: Buffer): Record<string, unknown> {
    const vars: Record<string, unknown> = { method: req.method, query: queryOf(queryString) };
    if (params) for (const k in params) vars[k] = params[k];
    for (const [name, lower] of this.headerVars) {
      const v = headerValue(req.headers, lower);
      if (v !== undefined) vars[name] = v;
    }
    if (this.o.rawBodyVar !== undefined) vars[this.o.rawBodyVar] = exactBody(raw);
    return vars;
  }

  private correlationIdOf(req: IncomingMessage): string | undefined {
    if (this.correlationHeader === undefined) return undefined;
    return headerValue(req.headers, this.correlationHeader) || undefined;
  }

  /**
   * An SSE route (spec 2 §3.1): the flow's first frame turns the response into an event stream;
   * a flow that ends first answers as any route does. The timeout bounds the wait for either.
   */
  private async stream(msg: Message, req: IncomingMessage, res: ServerResponse, sse: NonNullable<RouteOptions['sse']>): Promise<void> {
    this.openStreams++;
    const stream = sse.registry.open(res, sse, () => this.openStreams--);
    msg.vars[sse.streamVar] = stream.address;
    noteExchange(req, { stream: stream.address });
    const running = this.o.submit(msg);
    const first = await this.firstOf(running, stream, msg);
    if (stream.state === 'pending') {
      stream.discard();
      if (first === undefined || first === 'committed') return sendError(res, 504, this.timeoutText(), this.o.response.closeConnection);
      return sendResult(res, first, this.o.response);
    }
    await stream.finish(await running);
  }

  private firstOf(running: Promise<FlowResult>, stream: SseStream, msg: Message): Promise<FlowResult | 'committed' | undefined> {
    return new Promise((resolve) => {
      const timer = this.o.timeoutMs > 0 ? heldTimeout(this.o.clock ?? systemClock, msg, this.o.timeoutMs, () => resolve(undefined)) : undefined;
      stream.onCommit = () => {
        timer?.clear();
        resolve('committed');
      };
      void running.then((r) => {
        timer?.clear();
        resolve(r);
      });
    });
  }

  /** The flow took longer than the timeout: 504, and whatever it answers later is dropped. */
  timedOut(res: ServerResponse): void {
    sendError(res, 504, this.timeoutText(), this.o.response.closeConnection);
  }

  private timeoutText(): string {
    return `flow "${this.flowName}" did not answer within ${formatDuration(this.o.timeoutMs)}`;
  }
}

/**
 * The request bytes for `rawBodyVar` (spec 2 §2.2): text when they are valid UTF-8 (the text
 * encodes back to the very same bytes), else the bytes themselves, since decoding would replace
 * what is not UTF-8 and no signature over the result could verify.
 */
function exactBody(raw: Buffer): string | Uint8Array {
  return isUtf8(raw) ? raw.toString('utf8') : raw;
}

function answerTimeout(route: HttpRoute, res: ServerResponse): void {
  route.timedOut(res);
}

/** A body the route cannot decode is the client's mistake (400); anything else is rethrown, to answer 500. */
