import type { ComparedStep, RunComparison, RunDetail, RunStep } from '../../../shared/trace-types.ts';

/**
 * Two runs side by side, step by step, matched by setting path: a step only one run took shows
 * on its side alone (the other took another branch or stopped earlier). Steps keep the order of
 * the earlier run (A), with B's own steps placed after the step they followed there.
 */
export function compareRuns(first: RunDetail, second: RunDetail): RunComparison {
  // A is the earlier run, so "before and after an edit" reads left to right.
  const [a, b] = first.summary.startedAt <= second.summary.startedAt ? [first, second] : [second, first];
  const rows: ComparedStep[] = a.steps.map((s) => ({ step: s.step, block: s.block, name: s.name, depth: s.depth, a: s, same: false }));
  const index = new Map(rows.map((r, i) => [r.step, i]));
  const inB = new Set(b.steps.map((s) => s.step));
  let after = -1;
  for (const s of b.steps) {
    const at = index.get(s.step);
    if (at !== undefined && rows[at].b === undefined) {
      rows[at].b = s;
      after = at;
      continue;
    }
    // After the steps only A took in the same stretch (A's branch, then B's).
    let insert = after + 1;
    while (insert < rows.length && rows[insert].b === undefined && rows[insert].a !== undefined && !inB.has(rows[insert].step)) insert++;
    rows.splice(insert, 0, { step: s.step, block: s.block, name: s.name, depth: s.depth, b: s, same: false });
    after = insert;
    // Positions at and after the insert moved by one.
    for (const [k, v] of index) if (v >= insert) index.set(k, v + 1);
  }
  for (const r of rows) r.same = r.a !== undefined && r.b !== undefined && sameStep(r.a, r.b);
  const out: RunComparison = { a: a.summary, b: b.summary, steps: rows };
  if (a.output) out.aOutput = a.output;
  if (b.output) out.bOutput = b.output;
  return out;
}

function sameStep(a: RunStep, b: RunStep): boolean {
  return a.outcome === b.outcome && a.error === b.error && JSON.stringify(a.output ?? null) === JSON.stringify(b.output ?? null);
}
