import type { Coverage } from './coverage.ts';
import type { Failure } from './expectations.ts';

/** A failure for people: what, how it differs, the diff, and the step where the run went its own way. */
export function failureText(f: Failure): string {
  const lines = [`${f.what}: ${f.message}`];
  if (f.diff) lines.push('  - expected  + actual', ...f.diff.split('\n').map((l) => `  ${l}`));
  if (f.step) lines.push(`  diverged at ${f.step}`);
  return lines.join('\n');
}

/** `steps 4/5, branches 3/4` and every step not run and branch not taken. */
export function coverageText(label: string, c: Coverage): string {
  const run = c.steps.filter((s) => s.hits > 0).length;
  const taken = c.branches.filter((b) => b.hits > 0).length;
  const pct = (a: number, b: number) => (b === 0 ? '100' : ((100 * a) / b).toFixed(0));
  const lines = [`coverage ${label}: steps ${run}/${c.steps.length} (${pct(run, c.steps.length)}%), branches ${taken}/${c.branches.length} (${pct(taken, c.branches.length)}%)`];
  for (const s of c.steps) if (s.hits === 0) lines.push(`  step not run:      ${s.path} (${s.name ?? s.block})`);
  for (const b of c.branches) if (b.hits === 0) lines.push(`  branch not taken:  ${b.step} → ${b.label}`);
  return lines.join('\n');
}
