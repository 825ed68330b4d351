import { Environment, EvaluationError, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import { CelCallChecker } from './cel-calls.ts';
import { bindCelLibraries } from './cel-library/bind-libraries.ts';
import { compileFastPath, DEFER } from './cel-fast-path.ts';

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
  /**
   * Refuse at compile time what can never evaluate: a function, method or macro the environment
   * does not declare or with a wrong number of arguments, and an expression that does not
   * type-check (`1 + "a"`); default true. Off only where such expressions are evaluated on purpose
   * (CEL's conformance suite: `f_unknown(1) || true` is true).
   */
  checkCalls?: boolean;
}

export function createCelEnvironment(functions: readonly CelFunction[] = [], onCompile?: (source: string) => void, options: CelOptions = {}): CelEnvironment {
  return new CelEnvironment(functions, onCompile, options);
}

export class CelEnvironment {
  private readonly env: Environment;
  private calls: CelCallChecker | undefined;

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
      throw compileError(err);
    }
    const ast = (program as { ast?: unknown }).ast;
    const checking = this.options.checkCalls !== false;
    if (checking && ast !== undefined) {
      const problem = this.callChecker().check(ast, source);
      if (problem) throw new CelCompileError(problem.message, problem.offset);
    }
    // Checked on a parse of its own, since checking marks the tree the interpreter evaluates.
    const wantsFast = this.options.fastPath !== false && ast !== undefined;
    const checked = checking || wantsFast ? this.env.check(source) : undefined;
    if (checking && checked && !checked.valid) throw compileError(checked.error);
    // The fast path's closures only for an expression that type-checks (an ill-typed branch is an
    // error even where evaluation never reaches it).
    const fast = wantsFast && checked?.valid ? compileFastPath(ast, (name) => this.env.hasVariable(name)) : undefined;
    return {
      source,
      evaluate(activation: CelActivation): unknown {
        try {
          if (fast !== undefined) {
            const quick = fast(activation);
            if (quick !== DEFER) return fromCel(quick);
          }
          const value = program(activation);
          // An async function (secret(), templateResource() on a cold cache) makes the result a
          // Promise; callers that may meet one await it, the common sync path stays sync.
          return value instanceof Promise ? value.then(fromCel, (err: unknown) => Promise.reject(withoutSource(err))) : fromCel(value);
        } catch (err) {
          throw withoutSource(err);
        }
      },
    };
  }

  /** Built on first use, after every function of the environment is registered. */
  private callChecker(): CelCallChecker {
    if (this.calls === undefined) {
      const { functions, variables } = this.env.getDefinitions();
      this.calls = new CelCallChecker(functions, variables);
    }
    return this.calls;
  }
}

function compileError(err: unknown): CelCompileError {
  const e = err as { message?: string; range?: { start: number }; node?: { start?: number } } | undefined;
  const offset = e?.range?.start ?? e?.node?.start ?? 0;
  return new CelCompileError(firstLine(e?.message ?? String(err)), offset);
}

/**
 * cel-js writes the expression into an evaluation error's message (a line of source and a caret);
 * a failed flow answers its error to whoever sent the message, so only the summary goes on.
 */
function withoutSource(err: unknown): unknown {
  if (err instanceof EvaluationError || err instanceof CelTypeError) {
    const summary = (err as { summary?: string }).summary ?? firstLine(err.message);
    if (summary !== err.message) err.message = summary;
  }
  return err;
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
