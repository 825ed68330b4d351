import type { BodyView, HistoryEntry, RequestBody, ResolvedRequest } from '../../../shared/request-types.ts';
import { handshakeToken } from '../../runtime/index.ts';

/** What a masked value reads as, the same mark the runtime's redactor writes. */
export const MASK = '[redacted]';

/** Headers whose values are credentials whatever they hold: the scheme stays (`Bearer [redacted]`). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

/**
 * A sent request as the history keeps and shows it, masked like a capture of the same route: the
 * target integration's secret values and captured handshake tokens (its runtime's redactor) in
 * the URL, header values, text bodies and stream frames, plus what the composer itself adds that
 * a capture's reader would not want shown again: the value of an Authorization header (a bearer
 * token, a minted JWT), the signature header the studio computed, and the token of a notes
 * subscription handshake. `masked` says whether anything was hidden, so the original is kept
 * sealed for a re-send.
 */
export function maskHistoryEntry(entry: HistoryEntry, redact: (text: string) => string): { shown: HistoryEntry; masked: boolean } {
  let masked = false;
  const token = handshakeTokenOf(entry.request.body);
  const text = (s: string): string => {
    let out = redact(s);
    if (token !== undefined && out.includes(token)) out = out.split(token).join(MASK);
    if (out !== s) masked = true;
    return out;
  };
  const signatureHeader = entry.signature?.header.toLowerCase();
  const header = ([name, value]: [string, string]): [string, string] => {
    const lower = name.toLowerCase();
    if (lower === signatureHeader || CREDENTIAL_HEADERS.has(lower)) {
      const scheme = CREDENTIAL_HEADERS.has(lower) ? /^(\S+)\s+\S/.exec(value)?.[1] : undefined;
      const shown = scheme ? `${scheme} ${MASK}` : MASK;
      if (shown !== value) masked = true;
      return [name, shown];
    }
    return [name, text(value)];
  };
  const request: ResolvedRequest = { ...entry.request, url: text(entry.request.url), headers: entry.request.headers.map(header), body: maskBody(entry.request.body, text) };
  const response = { ...entry.response, headers: entry.response.headers.map(header), body: maskView(entry.response.body, text) };
  if (entry.response.frames) response.frames = entry.response.frames.map((f) => ({ ...f, data: text(f.data) }));
  if (entry.response.error !== undefined) response.error = text(entry.response.error);
  const shown: HistoryEntry = { ...entry, request, response };
  if (entry.signature) {
    shown.signature = { header: entry.signature.header, value: MASK };
    masked = true;
  }
  return { shown, masked };
}

/**
 * The request to send when a person re-sends one opened from the history: each field still as the
 * history showed it (masked) takes the value that was sent; a field edited since keeps the edit.
 */
export function unmaskForResend(input: ResolvedRequest, shown: ResolvedRequest, original: ResolvedRequest): ResolvedRequest {
  const out: ResolvedRequest = { ...input };
  out.url = sameTail(input.url, shown.url) ? withTailOf(input.url, original.url) : input.url;
  out.headers = input.headers.map(([name, value]) => {
    const i = shown.headers.findIndex(([n, v]) => n.toLowerCase() === name.toLowerCase() && v === value);
    const sent = i >= 0 ? original.headers[i] : undefined;
    return sent && sent[0].toLowerCase() === name.toLowerCase() && value !== sent[1] ? [name, sent[1]] : [name, value];
  });
  if (JSON.stringify(input.body) === JSON.stringify(shown.body)) out.body = original.body;
  return out;
}

function handshakeTokenOf(body: RequestBody): string | undefined {
  if (body.kind === 'json' || body.kind === 'text') return handshakeToken(body.text);
  if (body.kind === 'bytes') return handshakeToken(Buffer.from(body.base64, 'base64'));
  return undefined;
}

function maskBody(body: RequestBody, text: (s: string) => string): RequestBody {
  switch (body.kind) {
    case 'json':
    case 'text':
      return { ...body, text: text(body.text) };
    case 'multipart':
      return { kind: 'multipart', parts: body.parts.map((p) => (p.value === undefined ? p : { ...p, value: text(p.value) })) };
    case 'bytes': {
      // Only text is searched: masking inside binary bytes would corrupt them (as for captures).
      const bytes = Buffer.from(body.base64, 'base64');
      const decoded = bytes.toString('utf8');
      if (decoded.includes('\uFFFD')) return body;
      const shown = text(decoded);
      return shown === decoded ? body : { ...body, base64: Buffer.from(shown, 'utf8').toString('base64') };
    }
    default:
      return body;
  }
}

function maskView(view: BodyView, text: (s: string) => string): BodyView {
  return view.text === undefined ? view : { ...view, text: text(view.text) };
}

/** Whether two URLs have the same path and query (the origin follows the route's port now). */
function sameTail(a: string, b: string): boolean {
  return tailOf(a) === tailOf(b);
}

function tailOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

function withTailOf(target: string, from: string): string {
  try {
    const t = new URL(target);
    const f = new URL(from);
    return `${t.origin}${f.pathname}${f.search}`;
  } catch {
    return from;
  }
}
