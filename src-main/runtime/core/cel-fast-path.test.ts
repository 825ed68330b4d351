import { getConformanceSuite, type IncrementalTest, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { Environment } from '@marcbachmann/cel-js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activationFromBindings } from './cel-conformance-values.ts';
import { compileFastPath, DEFER } from './cel-fast-path.ts';
import { createCelEnvironment, type CelActivation } from './cel.ts';

/**
 * The fast path must answer exactly as the interpreter does, or not at all. Every comparison
 * runs one expression through two CelEnvironments, one with the fast path and one without, and
 * requires the same value (Object.is on every leaf: -0, NaN) or the same error.
 */
const withFastPath = createCelEnvironment();
const interpreterOnly = createCelEnvironment([], undefined, { fastPath: false });
const parser = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false, enableOptionalTypes: true });

type Outcome = { value: unknown } | { error: string };

function outcome(evaluate: () => unknown): Outcome {
  try {
    const value = evaluate();
    return value instanceof Promise ? { error: 'asynchronous' } : { value };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function both(expr: string, activation: CelActivation): { fast: Outcome; slow: Outcome } {
  const fast = outcome(() => withFastPath.compile(expr).evaluate(activation));
  const slow = outcome(() => interpreterOnly.compile(expr).evaluate(activation));
  return { fast, slow };
}

/** Whether the fast path itself answered (rather than deferring to the interpreter). */
function answeredFast(expr: string, activation: CelActivation): boolean {
  if (!parser.check(expr).valid) return false;
  const program = compileFastPath(parser.parse(expr).ast, () => false);
  return program !== undefined && program(activation) !== DEFER;
}

function* testsOf(suite: IncrementalTestSuite, path: string): Generator<[string, IncrementalTest]> {
  for (const t of suite.tests) yield [`${path}/${t.name}`, t];
  for (const s of suite.suites) yield* testsOf(s, `${path}/${s.name}`);
}

describe('CEL fast path', () => {
  it('answers every case of the cel-spec conformance corpus as the interpreter does, and answers hundreds of them itself', () => {
    const disagreements: string[] = [];
    let fastAnswers = 0;
    let compared = 0;
    for (const [path, test] of testsOf(getConformanceSuite(), '')) {
      const t = test.original;
      if (t.checkOnly) continue;
      let activation: CelActivation;
      try {
        activation = activationFromBindings(t.bindings);
      } catch {
        continue; // bindings our layer cannot express (protobuf messages)
      }
      compared++;
      const { fast, slow } = both(t.expr, activation);
      try {
        expect(fast).toStrictEqual(slow);
      } catch {
        disagreements.push(`${path}: ${t.expr} — fast ${JSON.stringify(fast, replacer)}, interpreter ${JSON.stringify(slow, replacer)}`);
      }
      if (answeredFast(t.expr, activation)) fastAnswers++;
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(1500);
    expect(fastAnswers).toBeGreaterThan(150);
  });

  it('answers the expressions flows write most itself', () => {
    const activation = { body: { id: 'o-1', price: 2.5, qty: 4, status: 'paid', total: 250.5, tags: ['a'] }, vars: { region: 'eu' } };
    for (const expr of [
      '{"id": body.id, "status": body.status, "total": body.price * body.qty}',
      'body.qty + 1',
      "body.status == 'paid' && body.total > 100.0",
      "vars.region + '-' + body.id",
      "{'id': body.id, 'tags': body.tags, 'n': [1, 2.5, null]}",
      "body.total >= 100.0 ? 'big' : 'small'",
      '!(body.price < 1.0) || -body.qty == -4',
      '[body.total / 3.0, body.price * 1.1, body.total - 0.1, body.qty / 0.0, -body.price / 7]',
      "has(body.customer) ? body.customer : 'anonymous'",
      'has(body.status) && !has(vars.missing)',
      'has(body.tags) && size(body.tags) > 0',
      "body.status in ['paid', 'shipped'] && 'region' in vars",
      "body.tags[0] == 'a' && body.tags.size() == 1 && size(body.status) == 4",
      "body['status'] != 'void'",
    ]) {
      expect(answeredFast(expr, activation), expr).toBe(true);
      const { fast, slow } = both(expr, activation);
      expect(fast, expr).toStrictEqual(slow);
    }
  });

  it('leaves to the interpreter what it cannot vouch for, which then answers or fails as always', () => {
    const activation = { body: { n: 3, s: 'x', m: new Map([['k', 1]]), constructor: 'odd', when: new Date(0) }, vars: {} };
    const cases: [string, CelActivation][] = [
      ['body.missing', activation], // no such key
      ['body.s + 1', activation], // no overload
      ['body.m.k', activation], // a Map
      ['body.when', activation], // a timestamp
      ['{"a": body}', activation], // an object with an own `constructor` field
      ['false && body.missing', { body: {} }], // absorbed by the interpreter itself
      ['body.n % 2.0', activation], // not in the subset
      ['size(body.n)', activation], // no size of a number
      ['body.s.startsWith("x")', activation], // a function call
      ['[1, 2][2]', activation], // an index out of range
      ['[1, 2][1.0]', activation], // a double index
      ['1 in [1.0, 2]', activation], // heterogeneous equality
      ["'x' in body.o", { body: { o: { a: 1, x: undefined } } }], // a key without a value: answered, false
      ["'a' in body.l", { body: { l: [1, 'a'] } }], // a list of mixed items (CEL's heterogeneous equality)
      ['1 + 2', activation], // int arithmetic (overflow checks)
      ["{'constructor': 1, 'prototype': 2, '__proto__': {'x': 3}, 'a': body.n}", { body: { n: 3 } }], // keys cel-js drops
    ];
    for (const [expr, act] of cases) {
      const { fast, slow } = both(expr, act);
      expect(fast, expr).toStrictEqual(slow);
    }
    expect(answeredFast('body.missing', activation)).toBe(false);
    expect(answeredFast('body.m.k', activation)).toBe(false);
    expect(answeredFast('1 + 2', activation)).toBe(false);
    expect(answeredFast('[1, 2][2]', activation)).toBe(false);
    // An ill-typed branch is an error even where evaluation would not reach it.
    expect(both("false && (1 + 'a' == 'b')", {}).fast).toHaveProperty('error');
  });

  it('agrees with the interpreter on random expressions over random messages', () => {
    fc.assert(
      fc.property(expression(3), activationArb, (expr, activation) => {
        const { fast, slow } = both(expr, activation);
        expect(fast).toStrictEqual(slow);
      }),
      { numRuns: Number(process.env.CEL_FAST_RUNS ?? 3000) },
    );
  });
});

const leaf = fc.constantFrom(
  'body.a', 'body.b', 'body.n', 'body.n.x', 'body.l', 'body.missing', 'vars.s', 'vars.i', 'correlationID',
  'has(body.a)', 'has(body.n.x)', 'has(body.n.x.y)', 'has(vars.s)', 'has(body.missing)',
  'size(body.a)', 'body.l.size()', 'size(vars.s)', 'body.l[0]', 'body.l[-1]', "body.n['x']", 'body.a in body.l', "'x' in body.n", "body.a in ['x', 'a']",
  '1', '0', '-3', '2.5', '0.0', '-0.0', '1e308', "'x'", '"a"', "''", 'true', 'false', 'null', '[]', '{}', '[1, "a"]', "{'k': 1}",
);
const binaryOps = ['+', '-', '*', '/', '==', '!=', '<', '<=', '>', '>=', '&&', '||', 'in'];

function expression(depth: number): fc.Arbitrary<string> {
  if (depth === 0) return leaf;
  const sub = expression(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 4, arbitrary: fc.tuple(sub, fc.constantFrom(...binaryOps), sub).map(([a, op, b]) => `(${a} ${op} ${b})`) },
    { weight: 1, arbitrary: sub.map((a) => `!${a}`) },
    { weight: 1, arbitrary: sub.map((a) => `-(${a})`) },
    { weight: 1, arbitrary: fc.tuple(sub, sub, sub).map(([c, a, b]) => `(${c} ? ${a} : ${b})`) },
    { weight: 1, arbitrary: fc.tuple(sub, sub).map(([a, b]) => `[${a}, ${b}]`) },
    { weight: 1, arbitrary: fc.tuple(sub, sub).map(([a, b]) => `{'k': ${a}, 'j': ${b}}`) },
    { weight: 1, arbitrary: sub.map((a) => `${a}.x`) },
    { weight: 1, arbitrary: sub.map((a) => `has(${a}.x)`) },
    { weight: 1, arbitrary: sub.map((a) => `size(${a})`) },
    { weight: 1, arbitrary: fc.tuple(sub, sub).map(([a, b]) => `${a}[${b}]`) },
  );
}

const scalar = fc.oneof(
  fc.double(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 2 ** 53, 0.1),
  fc.string({ maxLength: 3 }),
  fc.constantFrom('x', 'a', '', '\u{1F600}', '\uFFFF'),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.record({ x: scalar }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(new Map([['x', 1]]), new Uint8Array([1]), new Date(0), 3n, { x: undefined }, { a: 1, x: undefined }, { x: { y: undefined } }, [{ x: undefined }], [[undefined]], [undefined, 1], { constructor: 1, x: 2 }, Object.assign(Object.create(null), { x: 'n' })) },
);
const activationArb = fc.record({
  body: fc.record({ a: value, b: value, n: value, l: value }, { requiredKeys: ['a', 'b'] }),
  vars: fc.record({ s: value, i: value }, { requiredKeys: [] }),
  correlationID: fc.constant('c-1'),
});

function replacer(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v))) return Object.is(v, -0) ? '-0' : String(v);
  return v;
}
