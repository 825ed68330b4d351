/**
 * A faster way to evaluate the expressions flows write most — field reads, literals, arithmetic
 * and comparisons on numbers and strings, `&&`, `||`, `!`, `?:`, `has()`, `size()`, indexing,
 * `in`, list and map literals — compiled
 * once into closures instead of walked by the interpreter on every message (the interpreter
 * dispatches every operator through its overload tables: ~1 µs a mapping, most of CEL's share of
 * an http request).
 *
 * The interpreter stays the authority. A compiled program answers only when it is sure to give
 * what the interpreter would: every operator checks its operands' runtime types and returns DEFER
 * for anything outside the cases it knows (an int operand, a missing field, a Map, a type
 * mismatch that would be an error…), and the caller then runs the interpreter, which gives the
 * value or the error with its usual message. The subset calls no function but the pure `size()`,
 * so running the interpreter after a deferred attempt repeats no effect. cel-fast-path.test.ts checks the two
 * agree over the cel-spec conformance corpus and random expressions.
 */
import type { CelActivation } from './cel.ts';

/** The compiled program cannot vouch for the answer: evaluate with the interpreter instead. */
export const DEFER: unique symbol = Symbol('defer to the CEL interpreter');

export type FastProgram = (activation: CelActivation) => unknown;

/** The shape of cel-js parser nodes this module reads: an operator name and its arguments. */
interface AstNode {
  op: string;
  args: unknown;
}

/** Keys a map literal silently drops (cel-js' mapFromEntries): left to the interpreter. */
const DROPPED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const hasOwn = Object.hasOwn;

/**
 * The fast program for a parsed expression, or undefined when it uses anything outside the
 * subset. Call it only for an expression that type-checks (the interpreter rejects an ill-typed
 * branch even where evaluation would never reach it). `declared`: names the environment declares
 * (constants, typed variables), which read differently from an activation's plain values.
 */
export function compileFastPath(ast: unknown, declared: (name: string) => boolean): FastProgram | undefined {
  try {
    return compileNode(ast, declared);
  } catch (err) {
    if (err instanceof OutsideSubset) return undefined;
    throw err;
  }
}

class OutsideSubset extends Error {}

function outside(): never {
  throw new OutsideSubset();
}

/** The `n` operand nodes of an operator, compiled. */
function operandsOf(args: unknown, n: number, declared: (name: string) => boolean): FastProgram[] {
  if (!Array.isArray(args) || args.length !== n) return outside();
  return args.map((a: unknown) => compileNode(a, declared));
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).op === 'string';
}

/**
 * A value the interpreter takes as it is (its `debugType` succeeds and gives a plain type):
 * numbers, strings, bools, ints, null, plain objects and arrays. Maps, Sets, bytes, timestamps,
 * wrappers, and objects with an own `constructor` key are left to it.
 */
function plain(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
      return true;
    case 'object':
      return v === null || plainObject(v) || plainList(v);
    default:
      return false;
  }
}

/** What cel-js' fieldAccess reads as a map without a Map: `constructor` (its own, if it has one) is Object or missing. */
function plainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const c = (v as { constructor?: unknown }).constructor;
  return c === Object || c === undefined;
}

function plainList(v: unknown): v is unknown[] {
  return typeof v === 'object' && v !== null && (v as { constructor?: unknown }).constructor === Array;
}

function isScalar(v: unknown): v is null | string | number | boolean | bigint {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';
}

function compileNode(node: unknown, declared: (name: string) => boolean): FastProgram {
  if (!isNode(node)) return outside();
  const args = node.args;
  switch (node.op) {
    case 'value':
      return literal(args);
    case 'id': {
      if (typeof args !== 'string' || declared(args)) return outside();
      const name = args;
      return (a) => {
        if (!hasOwn(a, name)) return DEFER;
        const v = a[name];
        return plain(v) ? v : DEFER;
      };
    }
    case '.': {
      if (!Array.isArray(args) || args.length !== 2 || typeof args[1] !== 'string') return outside();
      const [target, field] = args as [unknown, string];
      const of = compileNode(target, declared);
      return (a) => fieldOf(of(a), field);
    }
    case 'list': {
      if (!Array.isArray(args)) return outside();
      const items = args.map((n) => compileNode(n, declared));
      return (a) => {
        const out = new Array<unknown>(items.length);
        for (let i = 0; i < items.length; i++) if ((out[i] = items[i](a)) === DEFER) return DEFER;
        return out;
      };
    }
    case 'map':
      return mapLiteral(args, declared);
    case 'call':
      return call(node, declared);
    case 'rcall': {
      // `x.size()`: the receiver's size, as `size(x)`.
      const [method, receiver, callArgs] = Array.isArray(args) ? (args as [unknown, unknown, unknown]) : [];
      if (method !== 'size' || !Array.isArray(callArgs) || callArgs.length !== 0) return outside();
      return sizeOf(compileNode(receiver, declared));
    }
    case '[]':
      return strict(operandsOf(args, 2, declared), indexed);
    case 'in':
      return strict(operandsOf(args, 2, declared), membership);
    case '?:': {
      const [c, l, r] = operandsOf(args, 3, declared);
      return (a) => {
        const cond = c(a);
        return cond === true ? l(a) : cond === false ? r(a) : DEFER;
      };
    }
    case '&&':
      return logical(operandsOf(args, 2, declared), false);
    case '||':
      return logical(operandsOf(args, 2, declared), true);
    case '!_': {
      const of = compileNode(args, declared);
      return (a) => {
        const v = of(a);
        return typeof v === 'boolean' ? !v : DEFER;
      };
    }
    case '-_': {
      const of = compileNode(args, declared);
      return (a) => {
        const v = of(a);
        return typeof v === 'number' ? -v : DEFER;
      };
    }
    case '+':
    case '-':
    case '*':
    case '/':
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const apply = operator(node.op);
      return strict(operandsOf(args, 2, declared), (l, r) => apply(l, r, operands(l, r)));
    }
    default:
      return outside();
  }
}

/**
 * `&&` (`decides` false) and `||` (`decides` true): a left operand equal to `decides` answers
 * alone, as in cel-js; any operand that is not a bool defers (the interpreter then applies CEL's
 * error absorption).
 */
function logical([l, r]: FastProgram[], decides: boolean): FastProgram {
  return (a) => {
    const left = l(a);
    if (left === decides) return decides;
    if (left !== !decides) return DEFER;
    const right = r(a);
    return typeof right === 'boolean' ? right : DEFER;
  };
}

function literal(value: unknown): FastProgram {
  // Bytes, uints and other wrapped literals are left to the interpreter.
  if (!isScalar(value)) return outside();
  return () => value;
}

/** `target.field` as cel-js' fieldAccess reads a plain object; anything else (a Map, a list, a missing key) defers. */
function fieldOf(target: unknown, field: string): unknown {
  if (!plainObject(target) || !hasOwn(target, field)) return DEFER;
  const v = target[field];
  return v !== undefined && plain(v) ? v : DEFER;
}

/** A call the subset knows: the `has()` macro or `size(x)`. */
function call(node: AstNode, declared: (name: string) => boolean): FastProgram {
  const [name, callArgs] = Array.isArray(node.args) ? (node.args as [unknown, unknown]) : [];
  if (name === 'size' && Array.isArray(callArgs) && callArgs.length === 1) return sizeOf(compileNode(callArgs[0], declared));
  return hasMacro(node, declared);
}

/** cel-js' size() overloads: a string's code points, a list's items, a map's keys; an int. */
function sizeOf(of: FastProgram): FastProgram {
  return (a) => {
    const v = of(a);
    if (typeof v === 'string') {
      let n = 0;
      for (const _ of v) n++;
      return BigInt(n);
    }
    if (!typable(v) || isScalar(v)) return DEFER;
    return BigInt(plainList(v) ? v.length : Object.keys(v as object).length);
  };
}

/**
 * Whether cel-js can name this argument's runtime type: for a function or an operator on a dyn
 * value it reads a list's type from its first item and a map's from its first entry, on down
 * (debugTypeDeep), and fails on a value it does not know there (`undefined`, say). Anything but
 * scalars, plain lists and plain objects is left to it.
 */
function typable(v: unknown, depth = 0): boolean {
  if (isScalar(v)) return true;
  if (depth > 32) return false;
  if (plainList(v)) return v[0] === undefined || typable(v[0], depth + 1);
  if (!plainObject(v)) return false;
  for (const key in v) return typable(v[key], depth + 1);
  return true;
}

/**
 * `list[int]` and `map[string]`: an item that exists and is a plain value; an index out of range,
 * a missing key or any other kind of key defers (the interpreter names the error).
 */
function indexed(target: unknown, key: unknown): unknown {
  if (typeof key === 'bigint') {
    if (!plainList(target)) return DEFER;
    const v = target[Number(key)];
    return v !== undefined && plain(v) ? v : DEFER;
  }
  return typeof key === 'string' ? fieldOf(target, key) : DEFER;
}

/**
 * `x in list` for a string among strings, and `key in map` for a string key; other kinds go by
 * CEL's heterogeneous equality, which the interpreter applies.
 */
function membership(value: unknown, container: unknown): unknown {
  if (typeof value !== 'string') return DEFER;
  if (plainList(container)) {
    let found = false;
    for (const item of container) {
      if (typeof item !== 'string') return DEFER;
      if (item === value) found = true;
    }
    return found;
  }
  if (!plainObject(container) || !typable(container)) return DEFER;
  return hasOwn(container, value) && container[value] !== undefined;
}

/**
 * `has(x.a.b)`, the macro (the parser marks it): every selection but the last must exist, as in
 * cel-js, and the last answers whether its key holds a value.
 */
function hasMacro(node: AstNode, declared: (name: string) => boolean): FastProgram {
  const macro = (node as { meta?: { macro?: unknown } }).meta?.macro;
  const [name, callArgs] = Array.isArray(node.args) ? (node.args as [unknown, unknown]) : [];
  if (name !== 'has' || macro === undefined || !Array.isArray(callArgs) || callArgs.length !== 1) return outside();
  const fields: string[] = [];
  let target: unknown = callArgs[0];
  while (isNode(target) && target.op === '.') {
    const [inner, field] = target.args as [unknown, unknown];
    if (typeof field !== 'string') return outside();
    fields.unshift(field);
    target = inner;
  }
  if (fields.length === 0) return outside();
  const base = compileNode(target, declared);
  const last = fields.pop()!;
  return (a) => {
    let obj = base(a);
    for (const field of fields) obj = fieldOf(obj, field);
    if (!plainObject(obj)) return DEFER;
    if (!hasOwn(obj, last)) return false;
    const v = obj[last];
    return v === undefined ? false : plain(v) ? true : DEFER;
  };
}

function mapLiteral(entries: unknown, declared: (name: string) => boolean): FastProgram {
  if (!Array.isArray(entries)) return outside();
  const keys: string[] = [];
  const values: FastProgram[] = [];
  for (const entry of entries as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) return outside();
    const [k, v] = entry as [unknown, unknown];
    // Only constant string keys: the interpreter's checks on keys (types, repeats) then hold here too.
    if (!isNode(k) || k.op !== 'value' || typeof k.args !== 'string') return outside();
    if (DROPPED_KEYS.has(k.args) || keys.includes(k.args)) return outside();
    keys.push(k.args);
    values.push(compileNode(v, declared));
  }
  return (a) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const v = values[i](a);
      if (v === DEFER) return DEFER;
      out[keys[i]] = v;
    }
    return out;
  };
}

type Operands = 'numbers' | 'mixed' | 'ints' | 'strings' | 'bools' | 'nulls' | undefined;

/**
 * Which overload the interpreter would pick for these operand values, among those the fast path
 * mirrors: double with double, double with int (cel.ts' mixed arithmetic), int with int (compared
 * only: int arithmetic checks for overflow), string, bool, null.
 */
function operands(l: unknown, r: unknown): Operands {
  const tl = typeof l;
  const tr = typeof r;
  if (tl === 'number') return tr === 'number' ? 'numbers' : tr === 'bigint' ? 'mixed' : undefined;
  if (tl === 'bigint') return tr === 'number' ? 'mixed' : tr === 'bigint' ? 'ints' : undefined;
  if (tl === 'string') return tr === 'string' ? 'strings' : undefined;
  if (tl === 'boolean') return tr === 'boolean' ? 'bools' : undefined;
  return l === null && r === null ? 'nulls' : undefined;
}

/** A binary operation on two evaluated operands; either one deferring defers the whole. */
function strict([l, r]: FastProgram[], apply: (left: unknown, right: unknown) => unknown): FastProgram {
  return (a) => {
    const left = l(a);
    if (left === DEFER) return DEFER;
    const right = r(a);
    return right === DEFER ? DEFER : apply(left, right);
  };
}

/** The overloads as cel-js and cel.ts define them, for the operand kinds above. */
function operator(op: string): (l: unknown, r: unknown, kind: Operands) => unknown {
  switch (op) {
    case '+':
      return (l, r, k) => (k === 'numbers' || k === 'strings' ? (l as number) + (r as number) : k === 'mixed' ? Number(l) + Number(r) : DEFER);
    case '-':
      return (l, r, k) => (k === 'numbers' || k === 'mixed' ? Number(l) - Number(r) : DEFER);
    case '*':
      return (l, r, k) => (k === 'numbers' || k === 'mixed' ? Number(l) * Number(r) : DEFER);
    case '/':
      return (l, r, k) => (k === 'numbers' || k === 'mixed' ? Number(l) / Number(r) : DEFER);
    // int == double compares the exact values (`a == b` on a BigInt and a number), as cel-js does.
    case '==':
      return (l, r, k) => (k === undefined ? DEFER : k === 'mixed' ? l == r : l === r);
    case '!=':
      return (l, r, k) => (k === undefined ? DEFER : k === 'mixed' ? l != r : l !== r);
    case '<':
      return (l, r, k) => (k === undefined || k === 'nulls' ? DEFER : (l as number) < (r as number));
    case '<=':
      return (l, r, k) => (k === undefined || k === 'nulls' ? DEFER : (l as number) <= (r as number));
    case '>':
      return (l, r, k) => (k === undefined || k === 'nulls' ? DEFER : (l as number) > (r as number));
    case '>=':
      return (l, r, k) => (k === undefined || k === 'nulls' ? DEFER : (l as number) >= (r as number));
    default:
      return outside();
  }
}
