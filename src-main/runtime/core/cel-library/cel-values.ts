import { Duration, EvaluationError, Optional, UnsignedInt } from '@marcbachmann/cel-js';

/**
 * What the extension libraries need to know about cel-js values: ints are BigInt, uints
 * UnsignedInt, doubles numbers, timestamps Dates, durations Duration, maps Map or plain objects.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- cel-js calls handlers with runtime-typed values
export type CelHandler = (...args: any[]) => unknown;

/** An evaluation error the caller sees with the expression's position, as cel-js' own. */
export function celError(message: string): EvaluationError {
  return new EvaluationError(message);
}

export const INT_MIN = -(2n ** 63n);
export const INT_MAX = 2n ** 63n - 1n;
export const UINT_MAX = 2n ** 64n - 1n;

export function isUint(v: unknown): v is UnsignedInt {
  return v instanceof UnsignedInt;
}

export function isNumeric(v: unknown): v is bigint | number | UnsignedInt {
  return typeof v === 'bigint' || typeof v === 'number' || v instanceof UnsignedInt;
}

/** The numeric value for comparison: BigInt for ints and uints, number for doubles (JS compares them exactly). */
export function numericValue(v: bigint | number | UnsignedInt): bigint | number {
  return v instanceof UnsignedInt ? v.value : v;
}

export function checkedInt(v: bigint, what: string): bigint {
  if (v < INT_MIN || v > INT_MAX) throw celError(`${what}: int overflow`);
  return v;
}

export function entriesOf(map: unknown): [unknown, unknown][] {
  if (map instanceof Map) return [...map.entries()];
  return Object.entries(map as Record<string, unknown>);
}

export function isMap(v: unknown): boolean {
  if (v instanceof Map) return true;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export { Duration, Optional, UnsignedInt };
