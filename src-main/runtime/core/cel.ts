import { Environment } from '@marcbachmann/cel-js';
import { bindCelLibraries } from './cel-library/bind-libraries.ts';
import { compileFastPath, DEFER, type FastProgram } from './cel-fast-path.ts';

/**
 * CEL for every expression setting. Expressions compile once when a definition loads; a message
 * only pays for evaluation.
 *
 * JSON numbers are doubles while CEL literals like `1` are ints, and strict CEL has no `double + int`.
 * Users write `body.count + 1` and expect it to work, so mixed arithmetic is registered here and
 * promotes the int to a double, as the specs say CEL numbers are doubles.
 *
 * Every environment also has the cel-go extension libraries (strings, math, encoders, optionals,
 * two-variable comprehensions, bindings, time zones), declared in shared/cel-functions.ts.
 */

export type CelActivation = Record<string, unknown>;

export interface CelFunction {
  /** cel-js signature, e.g. `templateResource(string): string`. */
  signature: string;
  description: string;
  handler: (...args: never[]) => unknown;
}

export interface CompiledCel {
  readonly source: string;
  /**
   * The value, or a Promise of it when the expression called a function that had to wait (a
   * secret or template resource not read yet). `await` the result where that can happen.
   */
  evaluate(activation: CelActivation): unknown;
}

/** A compile error with the offset inside the expression where it was found. */
export class CelCompileError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'CelCompileError';
    this.offset = offset;
  }
}

const ARITHMETIC: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
};

export interface CelOptions {
  /**
   * Evaluate the common expressions through compiled closures (cel-fast-path.ts), the interpreter
   * answering the rest; default true. Off only where the interpreter's own raw values are wanted
   * (the conformance suite compares them before fromCel).
   */
  fastPath?: boolean;
}

export function createCelEnvironment(functions: readonly CelFunction[] = [], onCompile?: (source: string) => void, options: CelOptions = {}): CelEnvironment {
  return new CelEnvironment(functions, onCompile, options);
}

export class CelEnvironment {
  private readonly env: Environment;

  /** `onCompile` sees every expression compiled, e.g. to read ahead what its function calls need. */
  constructor(
    functions: readonly CelFunction[],
    private readonly onCompile?: (source: string) => void,
    private readonly options: CelOptions = {},
  ) {
    this.env = new Environment({
      unlistedVariablesAreDyn: true,
      homogeneousAggregateLiterals: false,
      enableOptionalTypes: true,
    });
    for (const [op, fn] of Object.entries(ARITHMETIC)) {
      // The result is a double: undeclared, cel-js would type it as the left operand, and `1 + 0.5 + 1` then picked int + int.
      this.env.registerOperator(`double ${op} int: double`, (a: number, b: bigint) => fn(a, Number(b)));
      this.env.registerOperator(`int ${op} double: double`, (a: bigint, b: number) => fn(Number(a), b));
    }
    bindCelLibraries(this.env);
    for (const f of functions) {
      this.env.registerFunction(f.signature, f.handler as (...args: unknown[]) => unknown, { description: f.description });
    }
  }

  /** Compiles once; throws CelCompileError naming what is wrong and where in the expression. */
  compile(source: string): CompiledCel {
    this.onCompile?.(source);
    let program: (ctx: CelActivation) => unknown;
    try {
      program = this.env.parse(source) as unknown as (ctx: CelActivation) => unknown;
    } catch (err) {
      const e = err as { message?: string; range?: { start: number }; node?: { start?: number } };
      const offset = e.range?.start ?? e.node?.start ?? 0;
      throw new CelCompileError(firstLine(e.message ?? String(err)), offset);
    }
    const fast = this.fastProgram(source, program);
    return {
      source,
      evaluate(activation: CelActivation): unknown {
        if (fast !== undefined) {
          const quick = fast(activation);
          if (quick !== DEFER) return fromCel(quick);
        }
        const value = program(activation);
        // An async function (secret(), templateResource() on a cold cache) makes the result a
        // Promise; callers that may meet one await it, the common sync path stays sync.
        return value instanceof Promise ? value.then(fromCel) : fromCel(value);
      },
    };
  }

  /**
   * The closures for an expression in the fast path's subset that type-checks (an ill-typed branch
   * is an error even where evaluation never reaches it); checked on a parse of its own, since
   * checking marks the tree the interpreter evaluates.
   */
  private fastProgram(source: string, program: (ctx: CelActivation) => unknown): FastProgram | undefined {
    if (this.options.fastPath === false) return undefined;
    const ast = (program as { ast?: unknown }).ast;
    if (ast === undefined || !this.env.check(source).valid) return undefined;
    return compileFastPath(ast, (name) => this.env.hasVariable(name));
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0].trim();
}

/**
 * CEL ints come back as BigInt; messages carry JSON, so they turn into numbers. An int beyond
 * 2^53 cannot be a JSON number without losing digits, so it becomes `{$numberLong: "<digits>"}`,
 * the extended-JSON form the docstore connector understands.
 */
export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : { $numberLong: value.toString() };
  }
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array || value instanceof Date) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = fromCel(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = fromCel(v);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    // cel-js wrappers (uint, optional, durations) expose valueOf or toString.
    const v = (value as { valueOf(): unknown }).valueOf();
    if (v !== value) return fromCel(v);
    return value;
  }
  let out: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue;
    const v = record[k];
    const c = fromCel(v);
    if (c !== v) (out ??= { ...record })[k] = c;
  }
  return out ?? value;
}

/** CEL truthiness is strict: only `true` passes a predicate. */
export function isTrue(value: unknown): boolean {
  return value === true;
}
