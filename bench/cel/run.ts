/**
 * CEL bench: the per-evaluation cost of typical mapping expressions through our CEL layer
 * (`CelEnvironment.compile()` once, `.evaluate()` per message, fromCel included) against the
 * layer as it was before the extension libraries — the released @marcbachmann/cel-js 8.0.0 with the
 * same options, the same mixed int/double operators and the same fromCel — measured in the same
 * run, so the ratio is what the fork in src-main/runtime/core/cel-js-fork and the bound libraries cost (budget: 1.2×).
 * The interpreter column is our layer with its fast path off (cel-fast-path.ts): what the closures save.
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
  'has(body.items) && size(body.items) > 0',
  "body.status in ['paid', 'shipped'] && body.items[0].price > 1.0",
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

/** Best of ROUNDS for each, taking turns so load on the machine hits them alike. */
function nsPerEval(fns: readonly (() => unknown)[]): number[] {
  for (let i = 0; i < 20_000; i++) for (const fn of fns) fn();
  const best = fns.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round++) {
    fns.forEach((fn, k) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < ITERATIONS; i++) fn();
      best[k] = Math.min(best[k], Number(process.hrtime.bigint() - start) / ITERATIONS);
    });
  }
  return best;
}

const ours = createCelEnvironment();
const interpreter = createCelEnvironment([], undefined, { fastPath: false });
const before = baselineCompile();
const logs = [0, 0, 0];
console.log(`${'expression'.padEnd(58)} now ns  interpreter ns  before ns  now/before  interpreter/before`);
for (const source of EXPRESSIONS) {
  const fast = ours.compile(source);
  const slow = interpreter.compile(source);
  const ns = nsPerEval([() => fast.evaluate(activation), () => slow.evaluate(activation), before(source)]);
  ns.forEach((v, k) => (logs[k] += Math.log(v)));
  const [now, interpreted, then] = ns;
  console.log(
    `${source.slice(0, 57).padEnd(58)} ${now.toFixed(0).padStart(6)} ${interpreted.toFixed(0).padStart(15)} ${then.toFixed(0).padStart(10)} ${(now / then).toFixed(2).padStart(11)} ${(interpreted / then).toFixed(2).padStart(19)}`,
  );
}
const [mean, meanInterpreter, meanBefore] = logs.map((l) => Math.exp(l / EXPRESSIONS.length));
console.log(
  `geometric mean: now ${mean.toFixed(0)} ns/eval (fast path where it answers), interpreter alone ${meanInterpreter.toFixed(0)}, before ${meanBefore.toFixed(0)}; ratio now/before ${(mean / meanBefore).toFixed(2)}, interpreter/before ${(meanInterpreter / meanBefore).toFixed(2)}`,
);
