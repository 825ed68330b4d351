import { createRequire } from 'node:module';

/**
 * bson, loaded on the first conversion (a flow without a docstore never makes one). Synchronously,
 * since values convert in the middle of a step, and from node_modules in every build: the driver
 * requires that same copy (the CLI build keeps bson external), so there is one BSON in a process.
 */
let bson: typeof import('bson') | undefined;
const requireHere = createRequire(import.meta.url);
function lib(): typeof import('bson') {
  return (bson ??= requireHere('bson') as typeof import('bson'));
}

/**
 * Documents cross the message boundary as extended JSON v2 (spec 3 §2.4), both ways, so a
 * document read can be handed back as a filter unchanged.
 */
export type ExtendedJsonMode = 'relaxed' | 'canonical';

/**
 * A message value (plain JSON with `$oid`, `$date`, `$numberLong`… wrappers) as BSON-ready values.
 * Parsing is lenient: relaxed and canonical wrappers are both understood, and so are the legacy
 * forms. Wrapped numbers keep their type (`{$numberLong: "5"}` stays a 64-bit integer); plain
 * numbers become the narrowest type that holds them. Values that are already typed in memory
 * (dates from CEL, bytes, BSON values) keep their type too.
 */
export function toBsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  return lib().EJSON.parse(JSON.stringify(value, typedAsWrappers), { relaxed: false });
}

/**
 * EJSON parses JSON text, where a Date would arrive as a plain string and a BSON value as its
 * toJSON form; they are written as canonical wrappers instead. `this[key]` is the value before
 * its toJSON ran.
 */
function typedAsWrappers(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  if (original === null || (typeof original !== 'object' && typeof original !== 'bigint')) return value;
  if (typeof original === 'bigint') return { $numberLong: original.toString() };
  if (original instanceof Date) return { $date: { $numberLong: String(original.getTime()) } };
  if (original instanceof Uint8Array) return { $binary: { base64: Buffer.from(original).toString('base64'), subType: '00' } };
  if (tagOf(original) !== undefined) return lib().EJSON.serialize(original as never, { relaxed: false });
  return value;
}

/** BSON values read from the store as extended JSON in the connector's mode. */
export function toExtendedJson(value: unknown, mode: ExtendedJsonMode): unknown {
  return convert(value, mode === 'relaxed');
}

/**
 * The common types are written here directly, the rest through EJSON, with the same output as
 * `EJSON.serialize` except for one rule: relaxed mode would print a 64-bit integer above 2^53 as
 * a rounded number; it keeps its digits as {$numberLong} instead (spec 3 §2.4, §8).
 */
function convert(value: unknown, relaxed: boolean): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (relaxed && Number.isFinite(value)) return value === 0 ? 0 : value;
      return lib().EJSON.serialize(value as never, { relaxed });
    case 'bigint':
      return convert(lib().Long.fromBigInt(value), relaxed);
    case 'object':
      break;
    default:
      return null;
  }
  if (Array.isArray(value)) return value.map((v) => convert(v, relaxed));
  if (value instanceof Date) return dateJson(value, relaxed);
  const tag = tagOf(value);
  if (tag !== undefined) return bsonJson(value, tag, relaxed);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) defineKey(out, key, convert((value as Record<string, unknown>)[key], relaxed));
  return out;
}

function bsonJson(value: object, tag: string, relaxed: boolean): unknown {
  switch (tag) {
    case 'ObjectId':
      return { $oid: (value as { toHexString(): string }).toHexString() };
    case 'Int32': {
      const n = (value as { value: number }).value;
      return relaxed ? n : { $numberInt: String(n) };
    }
    case 'Long': {
      const digits = value.toString();
      return relaxed && isSafe(digits) ? Number(digits) : { $numberLong: digits };
    }
    case 'Decimal128':
      return { $numberDecimal: value.toString() };
    case 'Double': {
      const n = (value as { value: number }).value;
      // Written as JSON text -0 becomes 0; the message says so from the start.
      if (relaxed && Number.isFinite(n)) return n === 0 ? 0 : n;
      break;
    }
  }
  return lib().EJSON.serialize(value as never, { relaxed });
}

/** As extended JSON v2: relaxed ISO 8601 for years 1970–9999, milliseconds otherwise. */
function dateJson(date: Date, relaxed: boolean): unknown {
  const ms = date.getTime();
  if (relaxed && ms > -1 && ms < 253402318800000) {
    const iso = date.toISOString();
    return { $date: date.getUTCMilliseconds() === 0 ? `${iso.slice(0, -5)}Z` : iso };
  }
  return { $date: { $numberLong: String(ms) } };
}

/** The bson library's type tag (ObjectId, Long, Decimal128…): by tag, not instanceof, since the driver may load its own copy. */
function tagOf(value: object): string | undefined {
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}

function isSafe(digits: string): boolean {
  const n = BigInt(digits);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER);
}

/** Plain assignment of `__proto__` would set the prototype instead of a field named so. */
function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
