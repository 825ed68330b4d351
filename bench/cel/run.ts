/**
 * CEL bench: the per-evaluation cost of typical mapping expressions through our CEL layer
 * (`CelEnvironment.compile()` once, `.evaluate()` per message, fromCel included) against the
 * layer as it was before the extension libraries — the released @marcbachmann/cel-js 8.0.0 with the
 * same options, the same mixed int/double operators and the same fromCel — measured in the same
 * run, so the ratio is what the fork in src-main/runtime/core/cel-js-fork and the bound libraries cost (budget: 1.2×).
 *
 * Run: npm run bench:cel     (CEL_BENCH_ITERATIONS / CEL_BENCH_ROUNDS change the loop count and rounds)
 */
import { Environment as UpstreamEnvironment } from 'cel-js-upstream';
import { createCelEnvironment, fromCel } from '../../src-main/runtime/core/cel.ts';

const EXPRESSIONS: readonly string[] = [
  'body.count + 1',
  "body.status == 'paid' && body.total > 100.0",
  "{'id': body.id, 'total': body.total, 'tags': body.tags}",
  'body.items.map(i, i.price * 2.0)',
  'body.items.filter(i, i.price > 5.0).size() > 0',
  "vars.region + '-' + body.id",
  "has(body.customer) ? body.customer.name : 'anonymous'",
  "body.tags.exists(t, t.startsWith('vip'))",
];

const activation = {
  body: {
    id: 'o-1042',
    count: 3,
    status: 'paid',
    total: 250.5,
    tags: ['vip-gold', 'eu'],
    customer: { name: 'Ada' },
    items: [{ price: 4.5 }, { price: 12.0 }, { price: 7.25 }],
  },
  vars: { region: 'eu-west' },
};

const ITERATIONS = Number(process.env.CEL_BENCH_ITERATIONS ?? 50_000);
const ROUNDS = Number(process.env.CEL_BENCH_ROUNDS ?? 15);

/** The layer before: cel.ts' options and operators over the released cel-js. */
function baselineCompile(): (source: string) => () => unknown {
  const env = new UpstreamEnvironment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false, enableOptionalTypes: true });
  const ops: Record<string, (a: number, b: number) => number> = { '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b };
  for (const [op, fn] of Object.entries(ops)) {
    env.registerOperator(`double ${op} int`, (a: number, b: bigint) => fn(a, Number(b)));
    env.registerOperator(`int ${op} double`, (a: bigint, b: number) => fn(Number(a), b));
  }
  return (source) => {
    const program = env.parse(source);
    return () => fromCel(program(activation));
  };
}

/** Best of ROUNDS, alternating the two so load on the machine hits both alike. */
function nsPerEval(a: () => unknown, b: () => unknown): [number, number] {
  for (let i = 0; i < 20_000; i++) {
    a();
    b();
  }
  let bestA = Infinity;
  let bestB = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [fn, set] of [
      [a, (v: number) => (bestA = Math.min(bestA, v))],
      [b, (v: number) => (bestB = Math.min(bestB, v))],
    ] as const) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < ITERATIONS; i++) fn();
      set(Number(process.hrtime.bigint() - start) / ITERATIONS);
    }
  }
  return [bestA, bestB];
}

const ours = createCelEnvironment();
const before = baselineCompile();
let logOurs = 0;
let logBefore = 0;
console.log(`${'expression'.padEnd(58)} now ns  before ns  ratio`);
for (const source of EXPRESSIONS) {
  const compiled = ours.compile(source);
  const [now, then] = nsPerEval(() => compiled.evaluate(activation), before(source));
  logOurs += Math.log(now);
  logBefore += Math.log(then);
  console.log(`${source.slice(0, 57).padEnd(58)} ${now.toFixed(0).padStart(6)} ${then.toFixed(0).padStart(10)} ${(now / then).toFixed(2).padStart(6)}`);
}
const mean = Math.exp(logOurs / EXPRESSIONS.length);
const meanBefore = Math.exp(logBefore / EXPRESSIONS.length);
console.log(`geometric mean: now ${mean.toFixed(0)} ns/eval, before ${meanBefore.toFixed(0)} ns/eval, ratio ${(mean / meanBefore).toFixed(2)}`);
