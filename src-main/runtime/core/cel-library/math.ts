import { celError, checkedInt, INT_MIN, isNumeric, numericValue, UINT_MAX, type CelHandler, UnsignedInt } from './cel-values.ts';

/** The cel-go math extension (ext.Math, version 2). Ints are 64-bit: results that do not fit are errors. */

function extreme(name: string, pick: (a: bigint | number, b: bigint | number) => boolean): CelHandler {
  return (...args: unknown[]) => {
    const values = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    if (values.length === 0) throw celError(`${name}(): no arguments`);
    let best: unknown;
    let bestValue: bigint | number | undefined;
    for (const v of values) {
      if (!isNumeric(v)) throw celError(`${name}(): no such overload for a non-numeric argument`);
      const n = numericValue(v);
      if (bestValue === undefined || pick(n, bestValue)) {
        best = v;
        bestValue = n;
      }
    }
    return best;
  };
}

const MASK64 = (1n << 64n) - 1n;
const toInt64 = (v: bigint): bigint => BigInt.asIntN(64, v);

function shiftCount(n: bigint, fn: string): bigint {
  if (n < 0n) throw celError(`${fn}(): negative offset ${n}`);
  return n;
}

/** Rounds halves away from zero, as Go's math.Round. */
function round(d: number): number {
  if (!Number.isFinite(d)) return d;
  const r = Math.round(Math.abs(d));
  return Math.abs(d) % 1 === 0.5 ? Math.sign(d) * (Math.trunc(Math.abs(d)) + 1) : Math.sign(d) * r;
}

function sign(v: bigint | number): bigint | number {
  if (typeof v === 'number') return Number.isNaN(v) ? v : v > 0 ? 1 : v < 0 ? -1 : 0;
  return v > 0n ? 1n : v < 0n ? -1n : 0n;
}

export const MATH: Record<string, CelHandler> = {
  'math.greatest(dyn, ...): dyn': extreme('math.greatest', (a, b) => a > b),
  'math.least(dyn, ...): dyn': extreme('math.least', (a, b) => a < b),
  'math.ceil(double): double': Math.ceil,
  'math.floor(double): double': Math.floor,
  'math.round(double): double': round,
  'math.trunc(double): double': Math.trunc,
  'math.abs(int): int': (v: bigint) => {
    if (v === INT_MIN) throw celError('math.abs(): int overflow');
    return v < 0n ? -v : v;
  },
  'math.abs(uint): uint': (v: UnsignedInt) => v,
  'math.abs(double): double': Math.abs,
  'math.sign(int): int': sign,
  'math.sign(uint): uint': (v: UnsignedInt) => new UnsignedInt(v.value > 0n ? 1n : 0n),
  'math.sign(double): double': sign,
  'math.isNaN(double): bool': Number.isNaN,
  'math.isInf(double): bool': (d: number) => d === Infinity || d === -Infinity,
  'math.isFinite(double): bool': Number.isFinite,
  'math.sqrt(int): double': (v: bigint) => Math.sqrt(Number(v)),
  'math.sqrt(uint): double': (v: UnsignedInt) => Math.sqrt(Number(v.value)),
  'math.sqrt(double): double': Math.sqrt,
  'math.bitAnd(int, int): int': (a: bigint, b: bigint) => a & b,
  'math.bitAnd(uint, uint): uint': (a: UnsignedInt, b: UnsignedInt) => new UnsignedInt(a.value & b.value),
  'math.bitOr(int, int): int': (a: bigint, b: bigint) => a | b,
  'math.bitOr(uint, uint): uint': (a: UnsignedInt, b: UnsignedInt) => new UnsignedInt(a.value | b.value),
  'math.bitXor(int, int): int': (a: bigint, b: bigint) => a ^ b,
  'math.bitXor(uint, uint): uint': (a: UnsignedInt, b: UnsignedInt) => new UnsignedInt(a.value ^ b.value),
  'math.bitNot(int): int': (a: bigint) => ~a,
  'math.bitNot(uint): uint': (a: UnsignedInt) => new UnsignedInt(~a.value & MASK64),
  'math.bitShiftLeft(int, int): int': (a: bigint, n: bigint) => (shiftCount(n, 'math.bitShiftLeft') >= 64n ? 0n : toInt64(a << n)),
  'math.bitShiftLeft(uint, int): uint': (a: UnsignedInt, n: bigint) =>
    new UnsignedInt(shiftCount(n, 'math.bitShiftLeft') >= 64n ? 0n : (a.value << n) & UINT_MAX),
  'math.bitShiftRight(int, int): int': (a: bigint, n: bigint) =>
    shiftCount(n, 'math.bitShiftRight') >= 64n ? 0n : checkedInt(toInt64((a & MASK64) >> n), 'math.bitShiftRight'),
  'math.bitShiftRight(uint, int): uint': (a: UnsignedInt, n: bigint) => new UnsignedInt(shiftCount(n, 'math.bitShiftRight') >= 64n ? 0n : a.value >> n),
};
