import { CloneType, Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { ParameterSpec } from '../../../shared/platform-api/contract.ts';
import { ApiError, badRequest } from './api-error.ts';

/**
 * Validation of requests against the route schemas of shared/platform-api/, compiled once per
 * schema, on its first use: about 1 ms a route, which a server of 100 routes would otherwise
 * spend before its first answer. A failure is a 400 naming the field or parameter and what it should have been, since
 * the runtime quotes it to a person debugging. String values are never repeated (a body may
 * hold a secret); numbers, booleans and null are, except in a `writeOnly` field (a secret).
 * Two keywords of the route schemas shape the message: `x-expected` says in words what a
 * pattern string must be, `x-error-code` is the code a refused field answers (default
 * invalid_field; a missing one is always missing_field).
 *
 * A number's `maximum` in a request is where the server cuts it (spec 1 §8: waitSeconds,
 * maxMessages, limit… are clamped), so validation checks everything but `maximum` and the
 * handler clamps.
 */

const ERROR_CODE = 'x-error-code';
const EXPECTED = 'x-expected';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checker(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(withoutMaximum(CloneType(schema)));
    compiled.set(schema, check);
  }
  return check;
}

/**
 * Checks a parsed JSON body against its schema and returns it typed. Optional fields sent as
 * null read as absent, as they always have.
 */
export function validBody<T>(schema: TSchema, body: unknown, what = 'the request body'): T {
  const check = checker(schema);
  if (check.Check(body)) return body as T;
  const cleaned = withoutNulls(body);
  if (cleaned !== body && check.Check(cleaned)) return cleaned as T;
  throw bodyError(schema, check.Errors(cleaned).First(), what);
}

/**
 * Checks each entry of a list in a body against the schema its own `kind` picks, after `kinds`
 * (an object schema naming the kinds there are): a refusal then names the entry and the field
 * of the shape it claims to be (`records[3].status`), where one union schema could name only the
 * entry. `pointer(i)` is the entry's place in the body as a JSON pointer (`/3`, `/records/3`).
 */
export function validEntries<T>(entries: readonly unknown[], kinds: TSchema, schemaOf: (entry: { kind: string }) => TSchema, pointer: (i: number) => string, what = 'the request body'): T[] {
  const kindCheck = checker(kinds);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (!kindCheck.Check(entry)) throw bodyError(kinds, at(pointer(i), kindCheck.Errors(entry).First()), what);
    const schema = schemaOf(entry as { kind: string });
    const check = checker(schema);
    if (!check.Check(entry)) throw bodyError(schema, at(pointer(i), check.Errors(entry).First()), what);
  }
  return entries as T[];
}

function at(pointer: string, error: ValueError | undefined): ValueError | undefined {
  return error && { ...error, path: pointer + error.path };
}

function withoutNulls(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  if (!Object.values(body).includes(null)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
}

function bodyError(root: TSchema, error: ValueError | undefined, what: string): ApiError {
  if (!error) return badRequest('invalid_body', `${what} does not match its schema`);
  const field = fieldName(error.path);
  const { schema, value } = error;
  if (field === '') {
    const expected = root.description ? `is not what it must be: ${root.description}` : `must be ${describe(root)}`;
    return badRequest('invalid_body', `${what} ${expected} (got ${preview(value)})`);
  }
  if (error.type === ValueErrorType.ObjectRequiredProperty || value === undefined || (value === '' && (schema.minLength ?? 0) > 0)) {
    return badRequest('missing_field', `${what} needs "${field}": ${describe(schema)}`);
  }
  // A field may name the code its refusal carries (`x-error-code`, e.g. invalid_binding); a value of the wrong JSON type is invalid_field all the same.
  const wrongType = schema[Kind] === 'String' && typeof value !== 'string';
  const code = typeof schema[ERROR_CODE] === 'string' && !wrongType ? (schema[ERROR_CODE] as string) : 'invalid_field';
  if (schema[Kind] === 'Never') return badRequest(code, `"${field}" is refused: ${schema.description ?? 'it is not allowed here'}`);
  if (error.type === ValueErrorType.StringMaxLength) return badRequest(code, `"${field}" is ${(value as string).length} characters long; the limit is ${schema.maxLength}`);
  if (error.type === ValueErrorType.ArrayMaxItems) return badRequest(code, `"${field}" has ${(value as unknown[]).length} entries; send at most ${schema.maxItems} at once`);
  // A write-only field (a secret) never has its value repeated, whatever its type.
  return badRequest(code, `"${field}" must be ${describe(schema, field)}${schema.writeOnly ? '' : `, got ${preview(value)}`}`);
}

/** `/turns/0/seq` → `turns[0].seq`. */
function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name === '' ? part : `${name}.${part}`), '');
}

/** What a value of this schema is, in words: "a non-empty string", "an integer >= 1"… */
export function describe(schema: TSchema, field = ''): string {
  const min = schema.minimum === undefined ? '' : ` >= ${schema.minimum}`;
  switch (schema[Kind]) {
    case 'StringEnum':
      return `one of ${(schema.enum as string[]).join(', ')}`;
    case 'String':
      if (typeof schema[EXPECTED] === 'string') return schema[EXPECTED] as string;
      if (schema.pattern) return `a string matching ${schema.pattern}`;
      return (schema.minLength ?? 0) > 0 ? 'a non-empty string' : 'a string';
    case 'Integer':
      return `an integer${min}`;
    case 'Number':
      return `${field.endsWith('Seconds') ? 'a number of seconds' : 'a number'}${min}`;
    case 'Boolean':
      return 'true or false';
    case 'Literal':
      return JSON.stringify(schema.const);
    case 'Array':
      return schema.items?.[Kind] === 'String' ? 'an array of strings' : 'an array';
    case 'Record':
      return Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>)[0]?.[Kind] === 'String' ? 'an object of string values' : 'a JSON object';
    case 'Union':
      return schema.description ?? 'one of the forms its schema allows';
    case 'Object':
      return 'a JSON object';
    default:
      return schema.description ? `as described: ${schema.description}` : 'valid';
  }
}

function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return Array.isArray(value) ? 'an array' : 'an object';
}

/**
 * The query parameters a route declares, checked and converted: a required one must be present
 * and non-empty; an integer is digits (its `maximum` cuts, its `minimum` refuses); an enum one
 * of its values. An empty optional parameter reads as absent, unless it is an enum.
 */
export function validQuery(parameters: readonly ParameterSpec[] | undefined, query: URLSearchParams): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const p of parameters ?? []) {
    if (p.in !== 'query') continue;
    const raw = query.get(p.name);
    // An empty value reads as absent, except for an optional closed list (?force=), where "" is just not one of its values.
    if (raw === null || (raw === '' && (p.required || p.schema[Kind] !== 'StringEnum'))) {
      if (p.required) {
        const example = (p.schema.examples as string[] | undefined)?.[0];
        throw badRequest('missing_parameter', `the query parameter "${p.name}" is required${example ? `, e.g. ?${p.name}=${encodeURIComponent(example)}` : ''}`);
      }
      out[p.name] = undefined;
      continue;
    }
    out[p.name] = queryValue(p, raw);
  }
  return out;
}

function queryValue(p: ParameterSpec, raw: string): string | number {
  const { schema } = p;
  if (schema[Kind] === 'Integer') {
    const value = Number(raw);
    if (!/^\d{1,15}$/.test(raw) || (schema.minimum !== undefined && value < schema.minimum)) throw invalidParameter(p, raw);
    return schema.maximum === undefined ? value : Math.min(value, schema.maximum);
  }
  if (!checker(schema).Check(raw)) throw invalidParameter(p, raw);
  return raw;
}

function invalidParameter(p: ParameterSpec, raw: string): ApiError {
  return badRequest('invalid_parameter', `the query parameter "${p.name}" must be ${describe(p.schema)}, got "${raw.slice(0, 40)}"`);
}

function withoutMaximum<S extends TSchema>(schema: S): S {
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const s = node as Record<string, unknown>;
    if ((s.type === 'number' || s.type === 'integer') && 'maximum' in s) delete s.maximum;
    for (const value of Object.values(s)) visit(value);
  };
  visit(schema);
  return schema;
}
