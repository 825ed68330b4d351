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
 * Adds what the route knows to a watched request's record; a no-op when the request is not
 * watched. The hot path calls it only where the connector said the request is watched (its
 * `traced`): the fields' object and a symbol missed on the request cost every other request too.
 */
export function noteExchange(req: IncomingMessage, fields: ExchangeNote): void {
  const note = (req as NotedRequest)[NOTE];
  if (note) Object.assign(note, fields);
}

/** What one watched exchange gathers as it goes; the wrappers below find it on the response. */
interface Watch {
  hub: ExchangeHub;
  connector: string;
  req: IncomingMessage;
  note: ExchangeNote;
  startedAt: number;
  t0: number;
  kept: Buffer[];
  keptBytes: number;
  totalBytes: number;
  headers: Array<[string, string]> | undefined;
  eventStream: boolean;
  writeHead: ServerResponse['writeHead'];
  write: ServerResponse['write'];
  end: ServerResponse['end'];
}

const WATCH = Symbol('exchange-watch');
type WatchedResponse = ServerResponse & { [WATCH]: Watch };

/**
 * Records one request and its response for the hub's observers: the request as received, the
 * body bytes the route read, the status, headers and first bytes written, and how it ended. Frames
 * written to an event stream are reported one by one as they go out. Called only while someone
 * observes, so nothing here runs on an unwatched server. The response's writeHead, write and end
 * are replaced by shared functions that find this exchange's state on the response: no closures
 * per request.
 */
export function watchExchange(hub: ExchangeHub, connector: string, req: IncomingMessage, res: ServerResponse): void {
  const note: ExchangeNote = {};
  (req as NotedRequest)[NOTE] = note;
  (res as WatchedResponse)[WATCH] = {
    hub,
    connector,
    req,
    note,
    startedAt: Date.now(),
    t0: performance.now(),
    kept: [],
    keptBytes: 0,
    totalBytes: 0,
    headers: undefined,
    eventStream: false,
    writeHead: res.writeHead,
    write: res.write,
    end: res.end,
  };
  res.writeHead = watchedWriteHead as typeof res.writeHead;
  res.write = watchedWrite as typeof res.write;
  res.end = watchedEnd as typeof res.end;
  // 'close' comes once per response; `on` spares the wrapper `once` would build.
  res.on('close', reportExchange);
}

function watchedWriteHead(this: WatchedResponse, statusCode: number, a?: unknown, b?: unknown): ServerResponse {
  const w = this[WATCH];
  const given = typeof a === 'object' && a !== null ? a : typeof b === 'object' && b !== null ? b : undefined;
  const headers = headerPairs(this.getHeaders());
  for (const pair of headerPairs(given as OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined)) headers.push(pair);
  w.headers = headers;
  for (const [k, v] of headers) if (k.toLowerCase() === 'content-type' && v.startsWith('text/event-stream')) w.eventStream = true;
  // eslint-disable-next-line prefer-rest-params -- the caller's arguments, passed on exactly as given
  return (w.writeHead as (...args: unknown[]) => ServerResponse).apply(this, arguments as unknown as unknown[]);
}

function watchedWrite(this: WatchedResponse, chunk: unknown, encoding?: unknown): boolean {
  const w = this[WATCH];
  record(w, chunk, encoding);
  // eslint-disable-next-line prefer-rest-params -- as above
  return (w.write as (...args: unknown[]) => boolean).apply(this, arguments as unknown as unknown[]);
}

function watchedEnd(this: WatchedResponse, chunk?: unknown, encoding?: unknown): ServerResponse {
  const w = this[WATCH];
  record(w, chunk, encoding);
  // eslint-disable-next-line prefer-rest-params -- as above
  return (w.end as (...args: unknown[]) => ServerResponse).apply(this, arguments as unknown as unknown[]);
}

/** Keeps the first bytes of what is written, counts the rest, and reports event-stream frames. */
function record(w: Watch, chunk: unknown, encoding: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  const buf = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
  w.totalBytes += buf.length;
  if (w.keptBytes < MAX_RESPONSE_BYTES) {
    const part = buf.subarray(0, MAX_RESPONSE_BYTES - w.keptBytes);
    w.kept.push(part);
    w.keptBytes += part.length;
  }
  if (w.eventStream) w.hub.sseFrame({ connector: w.connector, flow: w.note.flow, stream: w.note.stream, frame: buf.toString('utf8'), at: Date.now() });
}

function reportExchange(this: WatchedResponse): void {
  const w = this[WATCH];
  const { req, note } = w;
  w.hub.exchange({
    connector: w.connector,
    flow: note.flow,
    route: note.route,
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    requestHeaders: rawPairs(req.rawHeaders),
    requestBody: note.body,
    correlationId: note.correlationId,
    stream: note.stream,
    status: this.headersSent ? this.statusCode : 0,
    responseHeaders: w.headers ?? headerPairs(this.getHeaders()),
    responseBody: w.kept.length === 1 ? w.kept[0] : Buffer.concat(w.kept, w.keptBytes),
    responseBytes: w.totalBytes,
    startedAt: w.startedAt,
    durationMs: performance.now() - w.t0,
    ended: this.writableFinished ? 'finished' : 'client-closed',
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
