/**
 * CEL bench: the per-evaluation cost of typical mapping expressions through our CEL layer
 * (`CelEnvironment.compile()` once, `.evaluate()` per message, fromCel included), against the bare
 * cel-js program of the same expression measured in the same run. The ratio is what cel.ts adds.
 *
 * Run: npm run bench:cel            (prints ns per evaluation per expression and the geometric mean)
 */
import { Environment } from '@marcbachmann/cel-js';
import { createCelEnvironment } from '../../src-main/runtime/core/cel.ts';

const EXPRESSIONS: readonly string[] = [
  "body.count + 1",
  "body.status == 'paid' && body.total > 100.0",
  "{'id': body.id, 'total': body.total, 'tags': body.tags}",
  "body.items.map(i, i.price * 2.0)",
  "body.items.filter(i, i.price > 5.0).size() > 0",
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

const ITERATIONS = Number(process.env.CEL_BENCH_ITERATIONS ?? 200_000);

function nsPerEval(fn: () => unknown): number {
  for (let i = 0; i < 20_000; i++) fn(); // warm up
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / ITERATIONS);
  }
  return best;
}

const ours = createCelEnvironment();
// The bare peer gets the same options and the one operator cel.ts adds that these expressions use.
const bare = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false, enableOptionalTypes: true });
bare.registerOperator('double + int', (a: number, b: bigint) => a + Number(b));
let logSum = 0;
let bareLogSum = 0;
console.log(`${'expression'.padEnd(58)} ours ns  bare ns  ratio`);
for (const source of EXPRESSIONS) {
  const compiled = ours.compile(source);
  const program = bare.parse(source);
  const a = nsPerEval(() => compiled.evaluate(activation));
  const b = nsPerEval(() => program(activation));
  logSum += Math.log(a);
  bareLogSum += Math.log(b);
  console.log(source.slice(0, 57).padEnd(58), a.toFixed(0).padStart(7), b.toFixed(0).padStart(8), (a / b).toFixed(2).padStart(6));
}
const mean = Math.exp(logSum / EXPRESSIONS.length);
const bareMean = Math.exp(bareLogSum / EXPRESSIONS.length);
console.log(`geometric mean: ours ${mean.toFixed(0)} ns/eval, bare cel-js ${bareMean.toFixed(0)} ns/eval, ratio ${(mean / bareMean).toFixed(2)}`);
