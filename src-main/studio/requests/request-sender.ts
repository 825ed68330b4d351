import { Agent, request, type Dispatcher } from 'undici';
import type { RequestProgress, ResolvedRequest, ResponseRecord, SseFrame } from '../../../shared/request-types.ts';
import { headerProblem } from '../../../shared/request-headers.ts';
import { errorMessage } from '../../runtime/index.ts';
import { StudioError } from '../studio-error.ts';
import { bodyView, encodeBody, headerOf, VIEW_LIMIT } from './body-bytes.ts';
import { markFinal, SseReader } from './sse-reader.ts';

/** The abort reason of a request whose page went away (a reload) rather than one stopped by its person. */
export const INTERRUPTED = 'interrupted';

/** Frames kept per stream; a stream that runs for hours keeps its newest. */
const MAX_FRAMES = 5_000;
/** How often live frames go to the window while a stream runs. */
const PROGRESS_MS = 50;

export interface SendOptions {
  id: string;
  signal: AbortSignal;
  /** Extra headers decided by the backend (a signature), added after the request's own. */
  extraHeaders?: Array<[string, string]>;
  onProgress(progress: RequestProgress): void;
}

/**
 * Sends the composer's requests from the main process, so a browser's CORS rules never get in
 * the way, and reads the answer: a body up to a limit, or an event stream frame by frame until
 * the server ends it or the person presses Stop (which closes the connection).
 */
export class RequestSender {
  private readonly agent: Dispatcher = new Agent({ keepAliveTimeout: 4_000, connections: 32 });

  async send(req: ResolvedRequest, options: SendOptions): Promise<ResponseRecord> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new StudioError(`"${req.url}" is not a URL; pick a route or give an absolute http:// URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new StudioError(`${url.protocol} URLs cannot be sent; use http:// or https://`);
    const encoded = encodeBody(req.body);
    const headers = [...req.headers, ...(options.extraHeaders ?? [])].filter(([k]) => k.trim() !== '').map(([k, v]): [string, string] => [k.trim(), v]);
    for (const [k, v] of headers) {
      const problem = headerProblem(k, v);
      if (problem) throw new StudioError(problem);
    }
    if (encoded.contentType && headerOf(headers, 'content-type') === undefined) headers.push(['content-type', encoded.contentType]);
    const startedAt = Date.now();
    const t0 = performance.now();
    const timing = (headersMs: number) => ({ startedAt, headersMs, totalMs: Math.round(performance.now() - t0) });

    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        dispatcher: this.agent,
        method: req.method.toUpperCase() as Dispatcher.HttpMethod,
        headers: headers.flat(),
        body: encoded.bytes,
        signal: options.signal,
        headersTimeout: 120_000,
        // An event stream may be quiet between frames for as long as it likes; Stop ends it.
        bodyTimeout: 0,
      });
    } catch (err) {
      const stopped = options.signal.aborted;
      const interrupted = stopped && options.signal.reason === INTERRUPTED;
      return {
        status: 0,
        headers: [],
        body: bodyView(undefined, undefined),
        timing: timing(Math.round(performance.now() - t0)),
        error: interrupted ? 'interrupted before the server answered: the page that sent it was reloaded or closed' : stopped ? 'stopped before the server answered' : `no response: ${errorMessage(err)}`,
      };
    }
    const headersMs = Math.round(performance.now() - t0);
    const responseHeaders = pairsOf(res.headers);
    const contentType = headerOf(responseHeaders, 'content-type');
    options.onProgress({ id: options.id, status: res.statusCode, headers: responseHeaders, frames: [] });

    if (contentType?.startsWith('text/event-stream')) {
      return this.readStream(res, options, t0, { status: res.statusCode, headers: responseHeaders, timing: timing(headersMs) }, () => timing(headersMs));
    }
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    let error: string | undefined;
    try {
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        total += buf.length;
        if (kept < VIEW_LIMIT) {
          chunks.push(buf);
          kept += buf.length;
        }
      }
    } catch (err) {
      error = options.signal.aborted ? 'stopped while the body was arriving' : `the body was cut off: ${errorMessage(err)}`;
    }
    const view = bodyView(Buffer.concat(chunks), contentType);
    view.bytes = total;
    view.truncated = total > VIEW_LIMIT;
    const record: ResponseRecord = { status: res.statusCode, headers: responseHeaders, body: view, timing: timing(headersMs) };
    if (error) record.error = error;
    return record;
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => {});
  }

  private async readStream(
    res: Dispatcher.ResponseData,
    options: SendOptions,
    t0: number,
    base: Pick<ResponseRecord, 'status' | 'headers' | 'timing'>,
    timing: () => ResponseRecord['timing'],
  ): Promise<ResponseRecord> {
    const reader = new SseReader(t0);
    const decoder = new TextDecoder();
    const frames: SseFrame[] = [];
    let unsent: SseFrame[] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      timer = undefined;
      if (unsent.length === 0) return;
      options.onProgress({ id: options.id, frames: unsent });
      unsent = [];
    };
    let endedBy: ResponseRecord['endedBy'] = 'server';
    let error: string | undefined;
    try {
      for await (const chunk of res.body) {
        const got = reader.push(decoder.decode(chunk as Buffer, { stream: true }));
        if (got.length === 0) continue;
        frames.push(...got);
        if (frames.length > MAX_FRAMES) frames.splice(0, frames.length - MAX_FRAMES);
        unsent.push(...got);
        timer ??= setTimeout(flush, PROGRESS_MS);
      }
    } catch (err) {
      if (options.signal.aborted) endedBy = options.signal.reason === INTERRUPTED ? 'interrupted' : 'stopped';
      else {
        endedBy = 'error';
        error = `the stream broke off: ${errorMessage(err)}`;
      }
    }
    if (timer) clearTimeout(timer);
    if (endedBy === 'server') markFinal(frames);
    flush();
    const record: ResponseRecord = {
      ...base,
      timing: timing(),
      body: { contentType: 'text/event-stream', text: '', bytes: 0, truncated: false },
      frames,
      endedBy,
    };
    if (error) record.error = error;
    return record;
  }
}

function pairsOf(headers: Record<string, string | string[] | undefined>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) out.push([k, one]);
  }
  return out;
}
