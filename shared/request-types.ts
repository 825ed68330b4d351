/**
 * Payloads of the Requests panel: the composer's requests, their responses and SSE frames,
 * history, saved requests, environments and captured webhooks. Plain data only.
 */

/** One row of a name/value table (query parameters, headers); unchecked rows are not sent. */
export interface KeyValueRow {
  name: string;
  value: string;
  enabled: boolean;
}

/** A file part of a multipart body, carried as base64 so it crosses IPC and HTTP as JSON. */
export interface MultipartFile {
  fileName: string;
  contentType: string;
  base64: string;
}

export interface MultipartPart {
  name: string;
  /** A text field; absent for a file part. */
  value?: string;
  file?: MultipartFile;
}

/**
 * A request body as the composer edits it. `bytes` is what a replay sends: the exact bytes of a
 * captured request.
 */
export type RequestBody =
  | { kind: 'none' }
  | { kind: 'json'; text: string }
  | { kind: 'text'; text: string; contentType: string }
  | { kind: 'multipart'; parts: MultipartPart[] }
  | { kind: 'bytes'; base64: string; contentType?: string };

/** The route a request is aimed at; its URL is looked up from the running integration when sent. */
export interface RequestTarget {
  integration: string;
  flow: string;
  /** The route pattern, e.g. `/jobs/{job}/progress`. */
  route: string;
}

/**
 * What the composer holds, before environment variables (`{{name}}`) and path parameters are
 * filled in. This is also the content of a saved request file.
 */
export interface ComposerRequest {
  name: string;
  target?: RequestTarget;
  method: string;
  /** An absolute URL when there is no target; otherwise unused. */
  url: string;
  pathParams: Record<string, string>;
  query: KeyValueRow[];
  headers: KeyValueRow[];
  body: RequestBody;
  /** Sign the body for notes-verify-request with the connector's verification token. */
  sign: boolean;
  /** The history entry this was opened from: its masked fields go out as they were sent. Never saved. */
  fromHistory?: string;
}

/** A request ready to go: absolute URL, only enabled headers, variables filled in. */
export interface ResolvedRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: RequestBody;
  target?: RequestTarget;
  sign?: boolean;
  /** As in ComposerRequest: the history entry whose masked values this re-sends. */
  fromHistory?: string;
}

/** What a window asks the backend to send; `id` is minted by the window so live frames find it. */
export interface SendRequestInput extends ResolvedRequest {
  id: string;
}

/** A body as shown: text when it is text, else base64; cut at a limit, with the full size. */
export interface BodyView {
  contentType?: string;
  text?: string;
  base64?: string;
  bytes: number;
  truncated: boolean;
}

/** One server-sent event as the composer received it. */
export interface SseFrame {
  /** Milliseconds since the request was sent. */
  atMs: number;
  event?: string;
  data: string;
  id?: string;
  /** A comment line (`: ping`), which keeps an idle stream alive. */
  heartbeat?: boolean;
  /**
   * `error` for an `event: error` frame; `final` for the last event of a stream the server closed
   * (never on one stopped, interrupted or broken off: its last event was just the last one seen).
   */
  mark?: 'final' | 'error';
}

export interface ResponseTiming {
  startedAt: number;
  /** Until the status line and headers arrived. */
  headersMs: number;
  totalMs: number;
}

export interface ResponseRecord {
  /** 0 when no response came (connection refused, stopped before headers). */
  status: number;
  headers: Array<[string, string]>;
  body: BodyView;
  timing: ResponseTiming;
  /** Why there is no (complete) response, for people. */
  error?: string;
  /** Present for event streams: every frame, heartbeats included. */
  frames?: SseFrame[];
  /**
   * How an event stream ended: the server closed it, the person pressed Stop, it broke off, or
   * the page that sent it went away mid-stream (interrupted).
   */
  endedBy?: 'server' | 'stopped' | 'error' | 'interrupted';
}

/** A request sent from the studio with what came back. */
export interface HistoryEntry {
  id: string;
  sentAt: number;
  request: ResolvedRequest;
  /** The signature header added when the request was signed (its value is an HMAC, not the token). */
  signature?: { header: string; value: string };
  response: ResponseRecord;
  /** Set when the request was a replay of a capture. */
  replayOf?: number;
  /** The capture of this request at the route, and the run it started, when it reached one. */
  captureId?: number;
  runId?: string;
}

/** Live progress of a request in flight: the status once known and frames as they arrive. */
export interface RequestProgress {
  id: string;
  status?: number;
  headers?: Array<[string, string]>;
  frames: SseFrame[];
}

/** A request saved in the workspace as a plain file under `requests/`. */
export interface SavedRequest {
  /** Path relative to `requests/`, e.g. `orders-api/price-an-order.json`. */
  file: string;
  request: ComposerRequest;
}

export interface RequestEnvironment {
  name: string;
  vars: Record<string, string>;
}

/** Sets of variables the composer fills into `{{name}}`; stored in `requests/environments.json`. */
export interface RequestEnvironments {
  active?: string;
  environments: RequestEnvironment[];
}

/** Whether a captured request passed notes-verify-request, and why not. */
export interface VerificationNote {
  ok: boolean;
  reason: string;
  /**
   * On a failed check, when the token is known: the signature the body should have carried
   * (an HMAC, which does not reveal the token) and the one it did carry ('' when none).
   */
  expected?: string;
  received?: string;
  /** The request was the unsigned subscription handshake whose token the connector took. */
  handshake?: boolean;
}

/**
 * A captured handshake token, given only to an explicit Reveal: the value to confirm the notes
 * subscription with and to configure as the connector's verificationToken.
 */
export type HandshakeTokenReveal =
  | {
      ok: true;
      token: string;
      /** The notes connector of the flow that took it. */
      connector?: string;
      /** Whether the running connector still checks signatures with it (a restart forgets it). */
      serving: boolean;
    }
  | { ok: false; reason: string };

/** A request that reached a route of a running integration, as listed. */
export interface CaptureSummary {
  id: number;
  integration: string;
  connector: string;
  flow?: string;
  route?: string;
  method: string;
  /** Path and query as sent. */
  target: string;
  /** 0 when the caller left before any answer. */
  status: number;
  startedAt: number;
  durationMs: number;
  ended: 'finished' | 'client-closed';
  requestBytes: number;
  correlationId?: string;
  /** The run it started, once known. */
  runId?: string;
  stream: boolean;
  verification?: VerificationNote;
}

export interface CaptureDetail extends CaptureSummary {
  requestHeaders: Array<[string, string]>;
  requestBody: BodyView;
  responseHeaders: Array<[string, string]>;
  responseBody: BodyView;
}

/**
 * A capture search: free words match anywhere; `path:`, `status:` (200, 4xx), `header:` and
 * `body:` narrow to one part, e.g. `status:4xx header:x-notes-signature`.
 */
export interface CaptureQuery {
  search?: string;
  limit?: number;
}

export interface CapturePage {
  total: number;
  rows: CaptureSummary[];
}

/** The signature header for a body, computed with the connector's token (never sent itself). */
export type SignatureResult = { ok: true; header: string; value: string } | { ok: false; reason: string };

/**
 * Where the signing helper takes a secret from: typed in (sent with the one call that uses it,
 * never stored or answered back) or a cluster secret of the Secrets panel, read in the backend.
 */
export type SigningSecret = { kind: 'typed'; value: string } | { kind: 'secret'; name: string };

/** An HMAC-SHA256 signature header for any body, in the shape a webhook sender uses. */
export interface HmacSignInput {
  body: RequestBody;
  secret: SigningSecret;
  encoding: 'hex' | 'base64';
  /** e.g. `X-Hub-Signature-256`. */
  header: string;
  /** Written before the signature, e.g. `sha256=`; may be empty. */
  prefix: string;
  /**
   * `body`: the HMAC covers the exact body bytes. `timestamp.body` (Stripe's scheme): it covers
   * `<unix seconds>.<body>` and the header reads `t=<unix seconds>,<prefix><signature>`.
   */
  payload: 'body' | 'timestamp.body';
  /** Unix seconds for `timestamp.body`; now when absent. */
  timestamp?: number;
}

/** An HS256 JSON Web Token to mint: header and claims as JSON text, as the user edits them. */
export interface JwtMintInput {
  header: string;
  claims: string;
  secret: SigningSecret;
}

export type JwtMintResult = { ok: true; token: string } | { ok: false; reason: string };
