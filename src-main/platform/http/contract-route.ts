import type { TSchema } from '@sinclair/typebox';
import type { ApiRoute, JsonBody, PathOf, QueryOf } from '../../../shared/platform-api/contract.ts';
import type { ApiError } from './api-error.ts';
import { declaredOver } from '../../../shared/refused-upload.ts';
import { bodyTooLarge, readBody, readJson, readJsonObject } from './http-io.ts';
import { validBody, validQuery } from './request-validation.ts';
import type { Route, RouteContext } from './router.ts';

/** What a handler of a declared route gets: the request, its checked query and a reader of its checked body. */
export interface ContractContext<R extends ApiRoute> extends RouteContext {
  readonly params: PathOf<R> & Record<string, string>;
  /** The declared query parameters, checked and converted (shared/platform-api/parameters.ts). */
  readonly input: QueryOf<R>;
  /** Reads the JSON body (up to the route's body limit, else 413) and checks it against the route's schema (400 naming the field). */
  json(): Promise<JsonBody<R>>;
  /** Reads the body as bytes, up to the route's body limit (else its 413). */
  bytes(): Promise<Buffer>;
}

export interface Binding {
  /** The capability named in the 501 a switched-off route answers. */
  capability: string;
  enabled: boolean;
}

/** JSON request bodies other than message payloads, memory values, telemetry batches and bundles. */
export const MAX_JSON_BODY_BYTES = 4 * 1024 * 1024;

/** The largest body a route reads, and the 413 it answers beyond it. */
export interface BodyLimit {
  maxBytes: number;
  /** Default: 413 body_too_large naming the limit. */
  refuse?: (maxBytes: number) => ApiError;
}

/**
 * Serves a route declared in shared/platform-api/: method, path and whether it is public come
 * from the declaration, the query is checked before the handler runs, and the body when the
 * handler reads it. A route's schemas are compiled on its first request (request-validation.ts),
 * so a server starts without compiling the checks of routes it may never serve.
 *
 * Every route has a body limit (`body`, else MAX_JSON_BODY_BYTES, also for routes that read no
 * body): a request whose Content-Length passes it is answered 413 before anything else of it
 * is looked at, so a client gets its answer without sending the body first.
 */
export function implement<R extends ApiRoute>(
  contract: R,
  binding: Binding,
  handle: (ctx: ContractContext<R>) => void | Promise<void>,
  body: BodyLimit = { maxBytes: MAX_JSON_BODY_BYTES },
): Route {
  const bodySchema = contract.body?.content['application/json'] as TSchema | undefined;
  const refuse = body.refuse ?? bodyTooLarge;
  const declared: Declared = { operationId: contract.operationId, bodySchema, maxBytes: body.maxBytes, refuse };
  return {
    method: contract.method,
    path: contract.path,
    public: contract.public,
    contract,
    ...binding,
    maxBodyBytes: body.maxBytes,
    handle(ctx) {
      if (declaredOver(ctx.req, body.maxBytes)) throw refuse(body.maxBytes);
      const input = validQuery(contract.parameters, ctx.query) as QueryOf<R>;
      return handle(new ContractRequest<R>(ctx, input, declared));
    },
  };
}

interface Declared {
  operationId: string;
  bodySchema: TSchema | undefined;
  maxBytes: number;
  refuse: (maxBytes: number) => ApiError;
}

/**
 * A request to a declared route as its handler sees it. A class, not a spread of the router's
 * context plus a closure: it is built for every request, and the spread and the closure were a
 * twentieth of a KV GET.
 */
class ContractRequest<R extends ApiRoute> implements ContractContext<R> {
  readonly req: RouteContext['req'];
  readonly res: RouteContext['res'];
  readonly params: PathOf<R> & Record<string, string>;
  readonly query: URLSearchParams;

  constructor(
    ctx: RouteContext,
    readonly input: QueryOf<R>,
    private readonly declared: Declared,
  ) {
    this.req = ctx.req;
    this.res = ctx.res;
    this.params = ctx.params as PathOf<R> & Record<string, string>;
    this.query = ctx.query;
  }

  async json(): Promise<JsonBody<R>> {
    const { bodySchema, operationId, maxBytes, refuse } = this.declared;
    if (!bodySchema) throw new Error(`${operationId} declares no JSON body`);
    // An object schema reads an empty body as {} (bodiless POSTs stay valid); others read any JSON value.
    const body = bodySchema.type === 'object' ? await readJsonObject(this.req, maxBytes, refuse) : await readJson(this.req, maxBytes, refuse);
    return validBody<JsonBody<R>>(bodySchema, body);
  }

  bytes(): Promise<Buffer> {
    return readBody(this.req, this.declared.maxBytes, this.declared.refuse);
  }
}
