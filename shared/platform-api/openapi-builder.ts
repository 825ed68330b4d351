import type { TSchema } from '@sinclair/typebox';
import type { ApiRoute, HeaderSpec, ParameterSpec, ResponseSpec } from './contract.ts';

type Json = Record<string, unknown>;

export interface DocumentParts {
  info: Json;
  servers: Json[];
  security: Json[];
  tags: Json[];
  securitySchemes: Json;
  errorCodes: Record<string, number>;
  /** Header components no route names (e.g. Allow, sent with a 405 before any route matched). */
  headers?: readonly HeaderSpec[];
}

/**
 * Builds the OpenAPI 3.1 document from the route declarations. A schema, parameter, header or
 * response with a component name is written once under `components` and referenced elsewhere,
 * so the document reads as the hand-written one did.
 */
export function buildOpenApi(routes: readonly ApiRoute[], parts: DocumentParts): Json {
  const schemas: Json = {};
  const parameters: Json = {};
  const headers: Json = {};
  const responses: Json = {};

  const schemaJson = (schema: TSchema, root = false): unknown => {
    const id = (schema as { $id?: unknown }).$id;
    if (!root && typeof id === 'string') {
      if (!(id in schemas)) {
        schemas[id] = null; // placeholder: keeps the order of first use and stops recursion
        schemas[id] = schemaJson(schema, true);
      }
      return { $ref: `#/components/schemas/${id}` };
    }
    return plain(schema, (nested) => schemaJson(nested));
  };
  const headerJson = (h: HeaderSpec): unknown => {
    const body = {
      ...(h.description ? { description: h.description } : {}),
      schema: schemaJson(h.schema),
    };
    if (!h.component) return body;
    headers[h.component] ??= body;
    return { $ref: `#/components/headers/${h.component}` };
  };
  const responseJson = (r: ResponseSpec): unknown => {
    const body: Json = { description: r.description };
    if (r.content)
      body.content = mapValues(r.content, (schema) => ({
        schema: schemaJson(schema),
      }));
    if (r.headers) body.headers = mapValues(r.headers, headerJson);
    if (!r.component) return body;
    responses[r.component] ??= body;
    return { $ref: `#/components/responses/${r.component}` };
  };
  const parameterJson = (p: ParameterSpec): unknown => {
    parameters[p.component] ??= {
      name: p.name,
      in: p.in,
      required: p.required,
      schema: schemaJson(p.schema),
      ...(p.description ? { description: p.description } : {}),
    };
    return { $ref: `#/components/parameters/${p.component}` };
  };

  for (const h of parts.headers ?? []) headerJson(h);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const operation: Json = {
      operationId: route.operationId,
      summary: route.summary,
    };
    if (route.description) operation.description = route.description;
    operation.tags = [route.tag];
    if (route.public) operation.security = [];
    if (route.parameters) operation.parameters = route.parameters.map(parameterJson);
    if (route.body) {
      operation.requestBody = {
        required: route.body.required,
        ...(route.body.description ? { description: route.body.description } : {}),
        content: mapValues(route.body.content, (schema) => ({
          schema: schemaJson(schema),
        })),
      };
    }
    operation.responses = mapValues(route.allResponses, responseJson);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: parts.info,
    servers: parts.servers,
    security: parts.security,
    tags: parts.tags,
    paths,
    components: {
      securitySchemes: parts.securitySchemes,
      schemas,
      parameters,
      headers,
      responses,
    },
    'x-error-codes': parts.errorCodes,
  };
}

function mapValues<T>(record: Readonly<Record<string | number, T>>, f: (value: T) => unknown): Json {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

/**
 * A TypeBox schema as plain JSON Schema: TypeBox's symbols dropped, `$id` left to the caller,
 * and `Type.Record(Type.String(), X)` (TypeBox writes `patternProperties: {"^(.*)$": X}`)
 * written as `additionalProperties: X`.
 */
function plain(schema: TSchema, nested: (schema: TSchema) => unknown): unknown {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    if (key === 'patternProperties' && isRecordPattern(value)) {
      out.additionalProperties = nested(Object.values(value)[0] as TSchema);
    } else if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, TSchema>).map(([k, v]) => [k, nested(v)]));
    } else if ((key === 'items' || key === 'not' || key === 'additionalProperties') && isSchema(value)) {
      out[key] = nested(value);
    } else if ((key === 'anyOf' || key === 'allOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map((v: TSchema) => nested(v));
    } else {
      out[key] = value;
    }
  }
  return out;
}

const isSchema = (value: unknown): value is TSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRecordPattern = (value: unknown): value is Record<string, TSchema> =>
  isSchema(value) && Object.keys(value).length === 1 && Object.keys(value)[0] === '^(.*)$';
