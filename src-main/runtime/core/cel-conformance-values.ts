import { isMessage, toJson, type Message, type Registry } from '@bufbuild/protobuf';
import {
  anyUnpack,
  AnySchema,
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  DurationSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  ListValueSchema,
  StringValueSchema,
  StructSchema,
  TimestampSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  ValueSchema as JsonValueSchema,
  type Any,
} from '@bufbuild/protobuf/wkt';
import type { ExprValue } from '@bufbuild/cel-spec/cel/expr/eval_pb.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { CelActivation } from './cel.ts';

/**
 * Converts between the conformance suite's protobuf `cel.expr.Value`s and the raw values
 * @marcbachmann/cel-js works with (before our `fromCel` turns them into JSON):
 *
 *   int → bigint, uint → UnsignedInt, double → number, bytes → Uint8Array, list → Array,
 *   map → plain object when every key is a string (the shape JSON messages have), else Map,
 *   google.protobuf.Duration → Duration, google.protobuf.Timestamp → Date, type → cel-js Type.
 *
 * Only the test harness uses this; nothing here is part of the runtime.
 */

/** A value the cel-js value model cannot represent (a protobuf message or enum of the test protos). */
export class UnsupportedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedValueError';
  }
}

const WELL_KNOWN_PREFIX = 'google.protobuf.';

let registry: Registry | undefined;
const testRegistry = (): Registry => (registry ??= getTestRegistry());

/**
 * The protobuf message and enum types a value mentions (objectValue / enumValue), outermost first.
 * Used to decide whether a case needs message types our CEL layer has no way to register.
 */
export function protoTypesIn(value: Value | undefined, into: string[] = []): string[] {
  const kind = value?.kind;
  switch (kind?.case) {
    case 'objectValue':
      into.push(typeNameOf(kind.value));
      break;
    case 'enumValue':
      into.push(kind.value.type);
      break;
    case 'listValue':
      for (const v of kind.value.values) protoTypesIn(v, into);
      break;
    case 'mapValue':
      for (const e of kind.value.entries) {
        protoTypesIn(e.key, into);
        protoTypesIn(e.value, into);
      }
      break;
    default:
      break;
  }
  return into;
}

/** True when every message type in the list is a google.protobuf well-known type we can unpack. */
export function onlyWellKnownTypes(types: readonly string[]): boolean {
  return types.every((t) => t.startsWith(WELL_KNOWN_PREFIX));
}

/** Bindings of a test case as a cel-js activation. Throws UnsupportedValueError for errors/unknowns/messages. */
export function activationFromBindings(bindings: Readonly<Record<string, ExprValue>>): CelActivation {
  const activation: CelActivation = {};
  for (const [name, binding] of Object.entries(bindings)) {
    if (binding.kind.case !== 'value') throw new UnsupportedValueError(`binding ${name} is ${binding.kind.case ?? 'empty'}, not a value`);
    activation[name] = toCel(binding.kind.value);
  }
  return activation;
}

/** A conformance `Value` as the raw value cel-js would produce or accept for it. */
export function toCel(value: Value): unknown {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
    case 'int64Value':
      return kind.value;
    case 'uint64Value':
      return new UnsignedInt(kind.value);
    case 'bytesValue':
      return kind.value;
    case 'listValue':
      return kind.value.values.map(toCel);
    case 'mapValue': {
      const entries = kind.value.entries.map((e) => [toCel(required(e.key, 'map key')), toCel(required(e.value, 'map value'))] as const);
      if (entries.every(([k]) => typeof k === 'string')) return Object.fromEntries(entries);
      return new Map(entries);
    }
    case 'objectValue':
      return fromWellKnown(kind.value);
    case 'enumValue':
      throw new UnsupportedValueError(`enum ${kind.value.type}`);
    case 'typeValue':
      throw new UnsupportedValueError(`type value ${kind.value}`);
    default:
      throw new UnsupportedValueError('empty value');
  }
}

function required<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new UnsupportedValueError(`missing ${what}`);
  return v;
}

function typeNameOf(any: Any): string {
  return any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1);
}

/** Wrappers, JSON values, durations and timestamps unpack to what CEL sees them as; other messages cannot. */
function fromWellKnown(any: Any): unknown {
  const type = typeNameOf(any);
  if (!type.startsWith(WELL_KNOWN_PREFIX)) throw new UnsupportedValueError(`message ${type}`);
  const msg: Message | undefined = anyUnpack(any, testRegistry());
  if (!msg) throw new UnsupportedValueError(`cannot unpack ${type}`);
  if (isMessage(msg, Int32ValueSchema) || isMessage(msg, Int64ValueSchema)) return BigInt(msg.value);
  if (isMessage(msg, UInt32ValueSchema) || isMessage(msg, UInt64ValueSchema)) return new UnsignedInt(BigInt(msg.value));
  if (isMessage(msg, FloatValueSchema) || isMessage(msg, DoubleValueSchema)) return msg.value;
  if (isMessage(msg, BoolValueSchema) || isMessage(msg, StringValueSchema) || isMessage(msg, BytesValueSchema)) return msg.value;
  if (isMessage(msg, JsonValueSchema)) return toJson(JsonValueSchema, msg);
  if (isMessage(msg, StructSchema)) return toJson(StructSchema, msg);
  if (isMessage(msg, ListValueSchema)) return toJson(ListValueSchema, msg);
  if (isMessage(msg, DurationSchema)) return new Duration(msg.seconds, msg.nanos);
  if (isMessage(msg, TimestampSchema)) {
    if (msg.nanos % 1_000_000 !== 0) throw new UnsupportedValueError('timestamp with sub-millisecond precision');
    return new Date(Number(msg.seconds) * 1000 + msg.nanos / 1_000_000);
  }
  if (isMessage(msg, AnySchema)) return fromWellKnown(msg);
  throw new UnsupportedValueError(`message ${type}`);
}

/**
 * Compares a raw cel-js result with the expected conformance value, type-strictly: int 1, uint 1u
 * and double 1.0 are three different results, as in the spec. Maps compare order-agnostically and
 * NaN matches NaN (the suite's value-equality rules). Returns undefined on a match, else the reason.
 */
export function mismatch(expected: Value, actual: unknown): string | undefined {
  const kind = expected.kind;
  const differ = (): string => `expected ${describeExpected(expected)}, got ${describeCel(actual)}`;
  switch (kind.case) {
    case 'nullValue':
      return actual === null ? undefined : differ();
    case 'boolValue':
    case 'stringValue':
    case 'int64Value':
      return actual === kind.value ? undefined : differ();
    case 'uint64Value':
      return actual instanceof UnsignedInt && actual.valueOf() === kind.value ? undefined : differ();
    case 'doubleValue':
      return typeof actual === 'number' && (actual === kind.value || (Number.isNaN(actual) && Number.isNaN(kind.value))) ? undefined : differ();
    case 'bytesValue':
      return actual instanceof Uint8Array && bytesEqual(actual, kind.value) ? undefined : differ();
    case 'typeValue':
      return celTypeName(actual) === kind.value ? undefined : differ();
    case 'listValue': {
      const list = Array.isArray(actual) ? actual : actual instanceof Set ? [...actual] : undefined;
      if (!list || list.length !== kind.value.values.length) return differ();
      for (let i = 0; i < list.length; i++) {
        const m = mismatch(kind.value.values[i], list[i]);
        if (m !== undefined) return `[${i}]: ${m}`;
      }
      return undefined;
    }
    case 'mapValue': {
      const entries = mapEntries(actual);
      if (!entries || entries.length !== kind.value.entries.length) return differ();
      for (const e of kind.value.entries) {
        const key = required(e.key, 'map key');
        const found = entries.find(([k]) => mismatch(key, k) === undefined);
        if (!found) return `missing key ${describeExpected(key)} in ${describeCel(actual)}`;
        const m = mismatch(required(e.value, 'map value'), found[1]);
        if (m !== undefined) return `[${describeExpected(key)}]: ${m}`;
      }
      return undefined;
    }
    default:
      throw new UnsupportedValueError(`expected ${kind.case ?? 'empty value'} cannot be compared`);
  }
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function mapEntries(v: unknown): [unknown, unknown][] | undefined {
  if (v instanceof Map) return [...v.entries()];
  if (v === null || typeof v !== 'object') return undefined;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null ? Object.entries(v) : undefined;
}

/** cel-js does not export its Type class; a type value is an instance of a class named Type with a name. */
function celTypeName(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || v.constructor?.name !== 'Type') return undefined;
  const name: unknown = (v as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}

function describeExpected(v: Value): string {
  const kind = v.kind;
  switch (kind.case) {
    case 'int64Value':
      return `int ${kind.value}`;
    case 'uint64Value':
      return `uint ${kind.value}u`;
    case 'doubleValue':
      return `double ${kind.value}`;
    case 'stringValue':
      return `string ${JSON.stringify(kind.value)}`;
    case 'typeValue':
      return `type ${kind.value}`;
    case 'listValue':
      return `[${kind.value.values.map(describeExpected).join(', ')}]`;
    case 'mapValue':
      return `{${kind.value.entries.map((e) => `${e.key ? describeExpected(e.key) : '?'}: ${e.value ? describeExpected(e.value) : '?'}`).join(', ')}}`;
    case undefined:
      return 'nothing';
    default:
      return `${kind.case.replace(/Value$/, '')} ${String(kind.value)}`;
  }
}

/** A raw cel-js value with its CEL type, for failure reports. */
export function describeCel(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'bigint':
      return `int ${v}`;
    case 'number':
      return `double ${v}`;
    case 'string':
      return `string ${JSON.stringify(v)}`;
    case 'boolean':
      return `bool ${v}`;
    case 'undefined':
      return 'undefined';
    case 'object':
      break;
    default:
      return `${typeof v} ${String(v)}`;
  }
  if (v instanceof UnsignedInt) return `uint ${v.valueOf()}u`;
  if (v instanceof Uint8Array) return `bytes [${[...v].join(',')}]`;
  if (v instanceof Optional) return v.hasValue() ? `optional.of(${describeCel(v.value())})` : 'optional.none()';
  if (v instanceof Duration) return `duration ${v.toString()}`;
  if (v instanceof Date) return `timestamp ${Number.isNaN(v.getTime()) ? 'invalid' : v.toISOString()}`;
  const typeName = celTypeName(v);
  if (typeName !== undefined) return `type ${typeName}`;
  if (Array.isArray(v)) return `[${v.map(describeCel).join(', ')}]`;
  const entries = mapEntries(v);
  if (entries) return `{${entries.map(([k, x]) => `${describeCel(k)}: ${describeCel(x)}`).join(', ')}}`;
  return `${v.constructor?.name ?? 'object'} ${String(v)}`;
}
