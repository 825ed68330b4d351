import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ExchangeHub } from '../../core/exchange-hub.ts';

/** Response bytes kept per exchange; the size of the rest is still counted. */
const MAX_RESPONSE_BYTES = 256 * 1024;

/** What the route learns about a watched request while it handles it. */
export interface ExchangeNote {
  flow?: string;
  route?: string;
  body?: Buffer;
  correlationId?: string;
  stream?: string;
}

const NOTE = Symbol('exchange-note');
type NotedRequest = IncomingMessage & { [NOTE]?: ExchangeNote };

/**
 * Adds what the route knows to a watched request's record; a no-op (one property read) when the
 * request is not watched.
 */
export function noteExchange(req: IncomingMessage, fields: ExchangeNote): void {
  const note = (req as NotedRequest)[NOTE];
  if (note) Object.assign(note, fields);
}

/**
 * Records one request and its response for the hub's observers: the request as received, the
 * body bytes the route read, the status, headers and first bytes written, and how it ended. Frames
 * written to an event stream are reported one by one as they go out. Called only while someone
 * observes, so nothing here runs on an unwatched server.
 */
export function watchExchange(hub: ExchangeHub, connector: string, req: IncomingMessage, res: ServerResponse): void {
  const note: ExchangeNote = {};
  (req as NotedRequest)[NOTE] = note;
  const startedAt = Date.now();
  const t0 = performance.now();
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let totalBytes = 0;
  let headers: Array<[string, string]> | undefined;
  let eventStream = false;

  const record = (chunk: unknown, encoding?: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    totalBytes += buf.length;
    if (keptBytes < MAX_RESPONSE_BYTES) {
      const part = buf.subarray(0, MAX_RESPONSE_BYTES - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (eventStream) hub.sseFrame({ connector, flow: note.flow, stream: note.stream, frame: buf.toString('utf8'), at: Date.now() });
  };

  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const given = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null);
    headers = [...headerPairs(res.getHeaders()), ...headerPairs(given as OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined)];
    eventStream = headers.some(([k, v]) => k.toLowerCase() === 'content-type' && v.startsWith('text/event-stream'));
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  const write = res.write;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    record(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  const end = res.end;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    record(chunk, rest[0]);
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;

  res.once('close', () => {
    const body = kept.length === 1 ? kept[0] : Buffer.concat(kept, keptBytes);
    hub.exchange({
      connector,
      flow: note.flow,
      route: note.route,
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      requestHeaders: rawPairs(req.rawHeaders),
      requestBody: note.body,
      correlationId: note.correlationId,
      stream: note.stream,
      status: res.headersSent ? res.statusCode : 0,
      responseHeaders: headers ?? headerPairs(res.getHeaders()),
      responseBody: body,
      responseBytes: totalBytes,
      startedAt,
      durationMs: performance.now() - t0,
      ended: res.writableFinished ? 'finished' : 'client-closed',
    });
  });
}

function rawPairs(raw: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
  return pairs;
}

/** Headers as writeHead accepts them (an object, a flat list, or a list of pairs) as name/value pairs. */
function headerPairs(given: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): Array<[string, string]> {
  if (!given) return [];
  const pairs: Array<[string, string]> = [];
  if (Array.isArray(given)) {
    if (given.length > 0 && Array.isArray(given[0])) {
      for (const pair of given as unknown as Array<[string, string]>) pairs.push([String(pair[0]), String(pair[1])]);
    } else {
      for (let i = 0; i + 1 < given.length; i += 2) pairs.push([String(given[i]), String(given[i + 1])]);
    }
    return pairs;
  }
  for (const [k, v] of Object.entries(given)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) pairs.push([k, String(one)]);
  }
  return pairs;
}
