import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the hosted notes API on 127.0.0.1, speaking its wire format: every call must
 * carry the Bearer token and a `Notes-Version` date, lists paginate with `has_more` and
 * `next_cursor`, and failures answer `{object: "error", status, code, message}`.
 */

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

type Json = Record<string, unknown>;

class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MIN_DATA_SOURCES_VERSION = '2025-09-03';

export class NotesApiDouble {
  readonly pages = new Map<string, Json>();
  readonly children = new Map<string, Json[]>();
  readonly databases = new Map<string, Json>();
  readonly dataSourceRows = new Map<string, Json[]>();
  readonly calls: RecordedCall[] = [];
  /** Milliseconds to wait before answering, to exercise the connector timeout. */
  delayMs = 0;
  private readonly failures: Array<{ after: number; failure: ApiFailure }> = [];

  private constructor(
    private readonly server: Server,
    readonly token: string,
    readonly baseURL: string,
  ) {}

  static async start(token = 'ntn_test_integration_token'): Promise<NotesApiDouble> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const double = new NotesApiDouble(server, token, `http://127.0.0.1:${port}/v1`);
    server.on('request', (req, res) => void double.handle(req, res));
    return double;
  }

  /** A coming call answers with this error instead of its data: the next one, or the one after `after` more. */
  failNext(status: number, code: string, message: string, after = 0): void {
    this.failures.push({ after, failure: new ApiFailure(status, code, message) });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = await readBody(req);
    const call: RecordedCall = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body: undefined };
    this.calls.push(call);
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    try {
      if (text !== '') {
        try {
          call.body = JSON.parse(text);
        } catch {
          throw new ApiFailure(400, 'invalid_json', 'Error parsing JSON body.');
        }
      }
      const version = this.checkCredentials(req.headers);
      const pending = this.failures[0];
      if (pending && pending.after-- === 0) throw this.failures.shift()!.failure;
      send(res, 200, this.route(call, version));
    } catch (err) {
      const f = err instanceof ApiFailure ? err : new ApiFailure(500, 'internal_server_error', String(err));
      send(res, f.status, { object: 'error', status: f.status, code: f.code, message: f.message, request_id: 'req-double' });
    }
  }

  private checkCredentials(headers: IncomingHttpHeaders): string {
    if (headers.authorization !== `Bearer ${this.token}`) throw new ApiFailure(401, 'unauthorized', 'API token is invalid.');
    const version = headers['notes-version'];
    if (typeof version !== 'string') throw new ApiFailure(400, 'missing_version', 'Notes-Version header should be defined, instead was `undefined`.');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) throw new ApiFailure(400, 'validation_error', `Notes-Version header should be a date, instead was \`${version}\`.`);
    return version;
  }

  private route(call: RecordedCall, version: string): Json {
    const parts = call.path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'v1') throw notFound('route', call.path);
    const [, kind, id, sub] = parts;
    if (call.method === 'GET' && kind === 'pages' && id && !sub) return this.pages.get(id) ?? throwNotFound('page', id);
    if (call.method === 'GET' && kind === 'blocks' && id && sub === 'children') {
      const blocks = this.children.get(id) ?? throwNotFound('block', id);
      return paginate(blocks, call.query.page_size, call.query.start_cursor, 'block');
    }
    if (call.method === 'GET' && kind === 'databases' && id && !sub) return this.databases.get(id) ?? throwNotFound('database', id);
    if (call.method === 'POST' && kind === 'data_sources' && id && sub === 'query') {
      if (version < MIN_DATA_SOURCES_VERSION) {
        throw new ApiFailure(400, 'invalid_request_url', `Data sources need Notes-Version ${MIN_DATA_SOURCES_VERSION} or later.`);
      }
      const rows = this.dataSourceRows.get(id) ?? throwNotFound('data source', id);
      const q = (call.body ?? {}) as Json;
      const selected = sortRows(rows.filter((r) => matches(r, q.filter)), q.sorts);
      const size = q.page_size === undefined ? undefined : String(q.page_size);
      return paginate(selected, size, typeof q.start_cursor === 'string' ? q.start_cursor : undefined, 'page_or_data_source');
    }
    throw notFound('route', `${call.method} ${call.path}`);
  }
}

function paginate(items: Json[], pageSizeText: string | undefined, cursor: string | undefined, type: string): Json {
  const pageSize = pageSizeText === undefined ? 100 : Number(pageSizeText);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    throw new ApiFailure(400, 'validation_error', `body.page_size should be a number between 1 and 100, instead was \`${pageSizeText}\`.`);
  }
  let start = 0;
  if (cursor !== undefined) {
    start = items.findIndex((item) => item.id === cursor);
    if (start < 0) throw new ApiFailure(400, 'validation_error', `start_cursor \`${cursor}\` is not valid.`);
  }
  const results = items.slice(start, start + pageSize);
  const next = items[start + pageSize];
  return { object: 'list', results, next_cursor: next ? (next.id as string) : null, has_more: next !== undefined, type, [type]: {}, request_id: 'req-double' };
}

/** The plain value of a typed property, enough for equality filters and sorts. */
function propertyValue(row: Json, name: string): unknown {
  const prop = ((row.properties ?? {}) as Record<string, Json>)[name];
  if (!prop) return undefined;
  const value = prop[prop.type as string];
  if (Array.isArray(value)) return value.map((t) => (t as Json).plain_text).join('');
  if (value && typeof value === 'object') return (value as Json).name ?? (value as Json).start;
  return value;
}

function matches(row: Json, filter: unknown): boolean {
  if (filter === undefined || filter === null) return true;
  const f = filter as Json;
  if (Array.isArray(f.and)) return f.and.every((x) => matches(row, x));
  if (Array.isArray(f.or)) return f.or.some((x) => matches(row, x));
  if (typeof f.property !== 'string') throw new ApiFailure(400, 'validation_error', 'body.filter.property should be defined.');
  const condition = Object.entries(f).find(([k]) => k !== 'property')?.[1] as Json | undefined;
  if (!condition || !('equals' in condition)) throw new ApiFailure(400, 'validation_error', 'The double understands only equals filters.');
  return propertyValue(row, f.property) === condition.equals;
}

function sortRows(rows: Json[], sorts: unknown): Json[] {
  if (!Array.isArray(sorts)) return rows;
  return [...rows].sort((a, b) => {
    for (const s of sorts as Json[]) {
      const key = (r: Json) => (typeof s.property === 'string' ? propertyValue(r, s.property) : r[s.timestamp as string]) as string | number;
      const [x, y] = [key(a), key(b)];
      if (x === y) continue;
      return (x < y ? -1 : 1) * (s.direction === 'descending' ? -1 : 1);
    }
    return 0;
  });
}

function notFound(kind: string, id: string): ApiFailure {
  return new ApiFailure(404, 'object_not_found', `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`);
}

function throwNotFound(kind: string, id: string): never {
  throw notFound(kind, id);
}

function send(res: ServerResponse, status: number, body: Json): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
