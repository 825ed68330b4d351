import { Kind, Type, TypeRegistry, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * The building blocks of the platform HTTP contract: each route is declared once with
 * `defineRoute` (method, path, parameters, request body and every status it answers, each with
 * its body schema). The server validates requests with these schemas, the runtime clients take
 * their types from them (`JsonBody`, `JsonResponse`), and `npm run gen` writes
 * shared/platform-openapi.json from them (openapi.ts).
 */

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** Names a schema as a component of the OpenAPI document: nested uses become `$ref`s. */
export function component<S extends TSchema>(name: string, schema: S): S {
  return Object.assign(schema, { $id: name });
}

TypeRegistry.Set<{ enum: readonly string[] }>('StringEnum', (schema, value) => typeof value === 'string' && schema.enum.includes(value));

/** A string from a closed list, written as JSON Schema's `enum` (TypeBox's union of literals would be an `anyOf`). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({
    ...options,
    [Kind]: 'StringEnum',
    type: 'string',
    enum: values,
  });
}

export interface ParameterSpec<N extends string = string, S extends TSchema = TSchema> {
  /** Its name in components.parameters (two parameters may share `name`, e.g. the query `name` of resources and memories). */
  readonly component: string;
  readonly name: N;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: S;
  readonly description?: string;
}

export function parameter<const P extends Omit<ParameterSpec, 'component'>>(component: string, spec: P): P & { readonly component: string } {
  return { component, ...spec };
}

export interface HeaderSpec {
  readonly component?: string;
  readonly description?: string;
  readonly schema: TSchema;
}

export function header(component: string, spec: Omit<HeaderSpec, 'component'>): HeaderSpec {
  return { component, ...spec };
}

export interface ResponseSpec {
  /** Set for the shared responses of components.responses (BadRequest, NotFound…). */
  readonly component?: string;
  readonly description: string;
  /** Media type → schema of the body. */
  readonly content?: Readonly<Record<string, TSchema>>;
  readonly headers?: Readonly<Record<string, HeaderSpec>>;
}

export function response<const R extends Omit<ResponseSpec, 'component'>>(component: string, spec: R): R & { readonly component: string } {
  return { component, ...spec };
}

export interface BodySpec {
  readonly required: boolean;
  readonly description?: string;
  /** Media type → schema; `application/json` bodies are validated by the server. */
  readonly content: Readonly<Record<string, TSchema>>;
}

export interface RouteSpec {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** OpenAPI-style template, e.g. `/v1/kv/{namespace}/entry`. */
  readonly path: string;
  /** The OpenAPI tag, one per capability (kv, queues, integrations…). */
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** Answers without a bearer token (discovery only). */
  readonly public?: boolean;
  readonly parameters?: readonly ParameterSpec[];
  /** A route with a body can also answer 408 (body stalled) and 413 (body over its limit). */
  readonly body?: BodySpec;
  /** Every status the route answers besides the ones every route shares (added by defineRoute). */
  readonly responses: Readonly<Record<number, ResponseSpec>>;
}

/** A declared route: its spec plus every response it may give (the common ones included, see route.ts). */
export type ApiRoute<R extends RouteSpec = RouteSpec> = R & {
  readonly statuses: ReadonlySet<number>;
  readonly allResponses: Readonly<Record<number, ResponseSpec>>;
};

/**
 * Where a declared route is, without its schemas: all a client needs of it at run time (its
 * operation, method and path). route-addresses.ts has one for every route, generated from the
 * declarations; the declaration's type rides along (`declared` is never set), so a call through an
 * address is typed by the route's schemas as one through the declaration is, while the runtime
 * loads neither TypeBox nor a schema.
 */
export interface RouteAddress<R extends ApiRoute = ApiRoute> {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Type only: absent at run time. */
  readonly declared?: R;
}

type ParamsOf<R> = R extends { parameters: readonly (infer P)[] } ? P : never;
type ParamIn<R, Where extends string> = Extract<ParamsOf<R>, { in: Where }>;

/** The path parameters of a route, by name. */
export type PathOf<R> = { [P in ParamIn<R, 'path'> as P extends { name: infer N extends string } ? N : never]: string };

/** The query parameters of a route once validated: required ones present, optional ones possibly undefined. */
export type QueryOf<R> = {
  [P in ParamIn<R, 'query'> as P extends { name: infer N extends string } ? N : never]: P extends {
    required: true;
    schema: infer S extends TSchema;
  }
    ? Static<S>
    : P extends { schema: infer S extends TSchema }
      ? Static<S> | undefined
      : never;
};

/** A route's declaration, from itself or from its address. */
type Declaration<R> = R extends { readonly responses: unknown } ? R : R extends RouteAddress<infer D> ? D : never;

/** The JSON request body of a route or of its address (`never` when it takes none). */
export type JsonBody<R> = Declaration<R> extends {
  body: { content: { 'application/json': infer S extends TSchema } };
}
  ? Static<S>
  : never;

/** The JSON body a route (or its address) answers with `status`. */
export type JsonResponse<R, Status extends number> = Declaration<R> extends {
  responses: {
    [K in Status]: { content: { 'application/json': infer S extends TSchema } };
  };
}
  ? Static<S>
  : never;
