import type {
  CaptureSummary,
  HandshakeTokenReveal,
  HistoryEntry,
  RequestProgress,
  RequestTarget,
  SendRequestInput,
  SignatureResult,
  SigningSecret,
} from '../../../shared/request-types.ts';
import type { RequestsApi, RouteInfo } from '../../../shared/studio-api.ts';
import { handshakeToken, NotesConnector, type Runtime } from '../../runtime/index.ts';
import { StudioError } from '../studio-error.ts';
import { encodeBody } from './body-bytes.ts';
import { composerRequestOf, currentOrigin, replayRequestOf } from './capture-replay.ts';
import type { CapturedExchange, CaptureStore } from './capture-store.ts';
import { signForRoute, verifyStepOf } from './notes-signing.ts';
import { maskHistoryEntry, unmaskForResend } from './history-masking.ts';
import type { RequestHistory } from './request-history.ts';
import type { SealedRequestOriginals } from './sealed-request-originals.ts';
import { INTERRUPTED, type RequestSender } from './request-sender.ts';
import type { SavedRequests } from './saved-requests.ts';
import { hmacSignature, mintHs256Jwt, type SecretValueOf } from './signing-helper.ts';

/** The StudioApi methods of the Requests panel, declared once in shared/. */
export type { RequestsApi };

export interface RequestsContext {
  captures: CaptureStore;
  history: RequestHistory;
  saved: SavedRequests;
  sender: RequestSender;
  routesOf(integration: string): RouteInfo[] | undefined;
  runtimeOf(integration: string): Runtime | undefined;
  /** How a capture at the integration's routes is masked (all running integrations' when none is named). */
  redactFor(integration: string | undefined): (text: string) => string;
  /** Where the unmasked requests are kept for a re-send; absent, a re-send sends what the history shows. */
  originals?: SealedRequestOriginals;
  definitionTexts(integration: string): Array<{ text: string }>;
  emitProgress(progress: RequestProgress): void;
  /** A cluster secret's value, for the signing helper; read in the backend only. */
  secretValueOf(name: string): Promise<string | undefined>;
}

/** How long a sent request waits for its capture (the server records it as its response ends). */
const CAPTURE_WAIT_MS = 300;
/**
 * How long a captured request that a flow took waits for its run to be recorded: the run event
 * can trail the capture on a busy machine, and a flow that answers before it ends is linked when
 * it ends, so this bounds what such a flow adds to the composer's wait.
 */
const RUN_WAIT_MS = 2_000;

export function requestsApi(ctx: RequestsContext): RequestsApi {
  const inFlight = new Map<string, AbortController>();

  const signatureFor = (target: RequestTarget | undefined, bytes: Uint8Array | string): SignatureResult => {
    if (!target) return { ok: false, reason: 'pick a route first: the signature uses the verification token of the route\'s notes connector' };
    const texts = safeTexts(ctx, target.integration);
    return signForRoute(ctx.runtimeOf(target.integration), verifyStepOf(texts, target.flow), bytes);
  };

  const send = async (input: SendRequestInput, replayOf?: number): Promise<HistoryEntry> => {
    if (typeof input?.id !== 'string' || input.id === '') throw new StudioError('a request needs an id');
    if (inFlight.has(input.id)) throw StudioError.conflict(`request ${input.id} is already being sent`);
    input = resendable(ctx, input);
    // Trimmed here, before the history masks credential headers by name: " Authorization" is Authorization.
    const headers = (Array.isArray(input.headers) ? input.headers : []).map(([k, v]) => [String(k).trim(), String(v)] as [string, string]);
    let body = input.body ?? { kind: 'none' };
    let signature: HistoryEntry['signature'];
    if (input.sign) {
      // Signed over the exact bytes that go out, so the body is encoded once, here.
      const encoded = encodeBody(body);
      const signed = signatureFor(input.target, encoded.bytes ?? '');
      if (!signed.ok) throw new StudioError(signed.reason);
      signature = { header: signed.header, value: signed.value };
      body = encoded.bytes ? { kind: 'bytes', base64: encoded.bytes.toString('base64'), contentType: encoded.contentType } : { kind: 'none' };
    }
    const request = { method: String(input.method || 'GET'), url: String(input.url), headers, body, target: input.target };
    const sendHeaders = signature ? headers.filter(([k]) => k.toLowerCase() !== signature!.header.toLowerCase()) : headers;
    const controller = new AbortController();
    inFlight.set(input.id, controller);
    const sentAt = Date.now();
    const seen = watchCaptures(ctx.captures, request.method, request.url, sentAt);
    try {
      const response = await ctx.sender.send(
        { ...request, headers: sendHeaders },
        { id: input.id, signal: controller.signal, extraHeaders: signature ? [[signature.header, signature.value]] : undefined, onProgress: ctx.emitProgress },
      );
      const capture = await seen.wait(response.status === 0 ? 0 : CAPTURE_WAIT_MS);
      const entry: HistoryEntry = { id: input.id, sentAt, request: { ...input, headers, body: input.body ?? { kind: 'none' } }, response };
      delete (entry.request as Partial<SendRequestInput>).id;
      delete entry.request.fromHistory;
      if (signature) entry.signature = signature;
      if (replayOf !== undefined) entry.replayOf = replayOf;
      if (capture) {
        entry.captureId = capture.id;
        const runId = capture.runId ?? (capture.correlationId !== undefined && capture.flow !== undefined ? await ctx.captures.runOf(capture.id, RUN_WAIT_MS) : undefined);
        if (runId !== undefined) entry.runId = runId;
      }
      // Kept and shown masked like a capture; what was sent stays only in the sealed originals.
      const { shown, masked } = maskHistoryEntry(entry, ctx.redactFor(input.target?.integration));
      if (masked) ctx.originals?.put(entry.id, entry.request);
      ctx.history.add(shown);
      ctx.originals?.keepOnly(new Set(ctx.history.list().map((e) => e.id)));
      return shown;
    } finally {
      seen.stop();
      inFlight.delete(input.id);
    }
  };

  return {
    sendRequest: (input) => send(input),
    async stopRequest(id, why) {
      inFlight.get(id)?.abort(why === 'interrupted' ? INTERRUPTED : undefined);
    },
    async requestHistory() {
      return ctx.history.list();
    },
    async clearRequestHistory() {
      ctx.history.clear();
      ctx.originals?.clear();
    },
    async savedRequests() {
      return ctx.saved.list();
    },
    async saveRequest(request, file) {
      return ctx.saved.save(request, file);
    },
    async deleteSavedRequest(file) {
      ctx.saved.delete(file);
    },
    async requestEnvironments() {
      return ctx.saved.environments();
    },
    async saveRequestEnvironments(environments) {
      return ctx.saved.saveEnvironments(environments);
    },
    async signRequestBody(target, body) {
      try {
        return signatureFor(target, encodeBody(body).bytes ?? '');
      } catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
      }
    },
    async signBodyHmac(input) {
      return hmacSignature(input, await secretOfInput(input?.secret, ctx));
    },
    async mintJwt(input) {
      return mintHs256Jwt(input, await secretOfInput(input?.secret, ctx));
    },
    async revealHandshakeToken(id) {
      return revealHandshake(ctx, captured(ctx, id));
    },
    async listCaptures(query) {
      return ctx.captures.query(query);
    },
    async captureDetail(id) {
      return ctx.captures.detail(Number(id)) ?? null;
    },
    async captureAsRequest(id) {
      return composerRequestOf(captured(ctx, id));
    },
    async replayCapture(id, requestId) {
      const c = captured(ctx, id);
      const request = replayRequestOf(c, currentOrigin(c, ctx.routesOf(c.integration)));
      return send({ ...request, id: requestId }, c.id);
    },
    async clearCaptures() {
      ctx.captures.clear();
    },
  };
}

/**
 * A request opened from the history and sent again: the fields it still has as the history showed
 * them (masked) go out with the values that were sent, read from the sealed originals.
 */
function resendable(ctx: RequestsContext, input: SendRequestInput): SendRequestInput {
  const from = input.fromHistory;
  if (typeof from !== 'string') return input;
  const rest = { ...input };
  delete rest.fromHistory;
  const shown = ctx.history.list().find((e) => e.id === from);
  const original = ctx.originals?.get(from);
  if (!shown || !original) return rest;
  return { ...unmaskForResend(rest, shown.request, original), id: input.id };
}

function captured(ctx: RequestsContext, id: number) {
  const c = ctx.captures.get(Number(id));
  if (!c) throw new StudioError(`capture ${id} is no longer kept; newer captures pushed it out`);
  return c;
}

/**
 * The token of a handshake capture, read from its exact bytes, and whether the running connector
 * still checks signatures with it. Only this call answers with it: the user asked to see it.
 */
function revealHandshake(ctx: RequestsContext, c: CapturedExchange): HandshakeTokenReveal {
  const note = ctx.captures.summaryOf(c).verification;
  const token = c.record.requestBody ? handshakeToken(c.record.requestBody) : undefined;
  if (!note?.handshake || token === undefined) {
    return { ok: false, reason: `capture #${c.id} is not a notes subscription handshake the flow accepted, so it holds no token to reveal` };
  }
  const step = c.record.flow !== undefined ? verifyStepOf(safeTexts(ctx, c.integration), c.record.flow) : undefined;
  const connector = step ? ctx.runtimeOf(c.integration)?.definition.connectors.find((x) => x.name === step.connector)?.instance : undefined;
  const serving = connector instanceof NotesConnector && connector.capturedVerificationToken === token;
  return { ok: true, token, serving, ...(step ? { connector: step.connector } : {}) };
}

function safeTexts(ctx: RequestsContext, integration: string): Array<{ text: string }> {
  try {
    return ctx.definitionTexts(integration);
  } catch {
    return [];
  }
}

/**
 * Watches for the capture of a request the composer sends: same method and target, recorded at a
 * route after it was sent. The server records a request as its response ends, which may be a
 * moment after the composer has read it, hence the short wait.
 */
function watchCaptures(captures: CaptureStore, method: string, url: string, sentAt: number) {
  let target = '';
  try {
    const u = new URL(url);
    target = u.pathname + u.search;
  } catch {
    // Not a URL: nothing will be captured for it.
  }
  let found: CaptureSummary | undefined;
  let wake: (() => void) | undefined;
  const stop = captures.onCapture((c) => {
    if (found || c.method !== method.toUpperCase() || c.target !== target || c.startedAt + 5 < sentAt) return;
    found = c;
    wake?.();
  });
  return {
    stop,
    wait(ms: number): Promise<CaptureSummary | undefined> {
      if (found || ms <= 0) return Promise.resolve(found);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(found), ms);
        wake = () => {
          clearTimeout(timer);
          resolve(found);
        };
      });
    },
  };
}

/**
 * The cluster secret a signing input names, read first (the platform's secret store answers
 * asynchronously), as the signing helper's synchronous lookup. Other names find nothing.
 */
async function secretOfInput(source: SigningSecret | undefined, ctx: Pick<RequestsContext, 'secretValueOf'>): Promise<SecretValueOf> {
  const name = source?.kind === 'secret' && typeof source.name === 'string' && source.name !== '' ? source.name : undefined;
  const value = name === undefined ? undefined : await ctx.secretValueOf(name);
  return (asked) => (asked === name ? value : undefined);
}
