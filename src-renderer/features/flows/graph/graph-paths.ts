import type { DefinitionOutline, OutlineBranch, OutlineStep, Span } from '../analysis/outline-types.ts';
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

/**
 * Whether two readings of a step draw the same node: the same path, block, name, detail and
 * branches all the way down. Where it is in the text is left out: an edit above shifts every span
 * below it, and a node looks its span up when clicked (spanAt).
 */
export function sameStep(a: OutlineStep, b: OutlineStep): boolean {
  if (a === b) return true;
  if (a.path !== b.path || a.block !== b.block || a.name !== b.name || a.detail !== b.detail || a.flowRef !== b.flowRef || a.branches.length !== b.branches.length) return false;
  return a.branches.every((x, i) => {
    const y = b.branches[i];
    return x.kind === y.kind && x.label === y.label && x.path === y.path && (x.span === undefined) === (y.span === undefined) && x.steps.length === y.steps.length && x.steps.every((s, j) => sameStep(s, y.steps[j]));
  });
}

/** Where the node at a path is in the text: a flow (its key), its source, a step, a branch (a case by its own path too). */
export function spanAt(outline: DefinitionOutline, path: string): Span | undefined {
  for (const flow of outline.flows) {
    if (path === `flows.${flow.name}`) return flow.keySpan;
    if (path === `flows.${flow.name}.source`) return flow.source?.span ?? flow.keySpan;
    if (!path.startsWith(`flows.${flow.name}.`)) continue;
    const walk = (steps: OutlineStep[]): Span | undefined => {
      for (const s of steps) {
        if (s.path === path) return s.span;
        for (const b of s.branches) {
          if (b.path === path || b.path === `${path}.steps`) return b.span;
          const found = walk(b.steps);
          if (found) return found;
        }
      }
      return undefined;
    };
    return walk(flow.steps) ?? walk(flow.onError);
  }
  return undefined;
}
