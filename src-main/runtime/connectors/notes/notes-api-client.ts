import type { Dispatcher } from 'undici';
import { FlowError, errorMessage } from '../../core/errors.ts';

export interface NotesApiOptions {
  baseURL: string;
  token: string;
  notesVersion: string;
  timeoutMs: number;
}

/**
 * A call the notes API answered with an error (`{object: "error", status, code, message}`), or
 * one that never got an answer (timeout, refused connection). Blocks fail on it or pass the
 * message through, as their `failOnError` says.
 */
export class NotesApiError extends FlowError {
  constructor(
    readonly httpStatus: number | undefined,
    readonly code: string,
    detail: string,
  ) {
    super(`notes API error${httpStatus ? ` ${httpStatus}` : ''} ${code}: ${detail}`);
    this.name = 'NotesApiError';
  }
}

export type JsonObject = Record<string, unknown>;

/** The notes API over one keep-alive pool; every request carries the Bearer token and Notes-Version. */
export class NotesApiClient {
  private agent: Dispatcher | undefined;
  private undici: typeof import('undici') | undefined;
  private ownsAgent = true;
  private readonly base: string;

  constructor(private readonly opts: NotesApiOptions) {
    this.base = opts.baseURL.replace(/\/+$/, '');
  }

  /**
   * Opens the pool, or sends through `dispatcher` instead (a sandbox's stand-in, which its owner
   * closes). undici is loaded here, by the first notes connector to start, not with the runtime.
   */
  async open(dispatcher?: Dispatcher): Promise<void> {
    this.ownsAgent = dispatcher === undefined;
    const undici = (this.undici ??= await import('undici'));
    this.agent ??= dispatcher ?? new undici.Agent({ keepAliveTimeout: 10_000, connections: 32 });
  }

  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    if (this.ownsAgent) await agent?.close();
  }

  get(path: string, query: Record<string, string | number | undefined> = {}): Promise<JsonObject> {
    const params = Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined);
    const search = params.length ? `?${new URLSearchParams(params.map(([k, v]) => [k, String(v)])).toString()}` : '';
    return this.call('GET', `${path}${search}`);
  }

  post(path: string, body: JsonObject): Promise<JsonObject> {
    return this.call('POST', path, body);
  }

  private async call(method: Dispatcher.HttpMethod, path: string, body?: JsonObject): Promise<JsonObject> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.opts.token}`,
      'notes-version': this.opts.notesVersion,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // One deadline for connect, headers and body together: the timeout bounds the whole call.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.opts.timeoutMs);
    try {
      if (!this.undici) throw new NotesApiError(undefined, 'not_open', 'the notes API client is not open (its connector has not started)');
      const res = await this.undici.request(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.agent,
        signal: controller.signal,
      });
      const text = await res.body.text();
      const data = parseJson(text);
      if (res.statusCode >= 400) throw apiError(res.statusCode, data);
      if (!isObject(data)) throw new NotesApiError(res.statusCode, 'invalid_response', `${method} ${pathOnly(path)} did not answer with a JSON object`);
      return data;
    } catch (err) {
      if (err instanceof NotesApiError) throw err;
      if (controller.signal.aborted) {
        throw new NotesApiError(undefined, 'timeout', `${method} ${pathOnly(path)} took longer than ${this.opts.timeoutMs}ms`);
      }
      throw new NotesApiError(undefined, 'request_failed', `${method} ${pathOnly(path)}: ${errorMessage(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

function apiError(status: number, data: unknown): NotesApiError {
  if (isObject(data) && typeof data.code === 'string') {
    return new NotesApiError(status, data.code, typeof data.message === 'string' ? data.message : 'no message');
  }
  return new NotesApiError(status, 'unexpected_response', `HTTP ${status} without an error object`);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function pathOnly(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
