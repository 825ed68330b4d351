import type { OutlineBranch, OutlineStep } from '../analysis/outline-types.ts';
import type { LastRun, OutcomeCounts } from '../run-stats.ts';

/** True when the last message went through this step. */
export function stepOnPath(step: OutlineStep, last: LastRun | undefined): boolean {
  return last !== undefined && step.path in last.steps;
}

/**
 * Which branch of a step the last message took: the one holding a traced step; when none does
 * but the step itself was passed, its otherwise-branch (a switch without a match passes on).
 */
export function takenBranch(step: OutlineStep, last: LastRun | undefined): OutlineBranch | undefined {
  if (!last || !stepOnPath(step, last)) return undefined;
  const prefixes = step.branches.map((b) => `${b.path}[`);
  const traced = Object.keys(last.steps);
  const i = prefixes.findIndex((p) => traced.some((s) => s.startsWith(p)));
  if (i >= 0) return step.branches[i];
  return step.branches.find((b) => b.kind === 'default' && b.steps.length === 0);
}

export function countsLabel(c: OutcomeCounts | undefined): string {
  if (!c) return 'no messages yet';
  return `${c.completed} passed, ${c.failed} failed, ${c.dropped} dropped`;
}
