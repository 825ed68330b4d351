import type { OutlineStep } from '../analysis/outline-types.ts';

/** A step's node with its connector and the drop place after it, before it was measured. */
const NODE_HEIGHT = 54;
const BRANCHES_HEIGHT = 70;

/** A first guess at the height a step takes on the graph: a node, and its branches side by side. */
export function estimatedHeight(step: OutlineStep): number {
  if (step.branches.length === 0) return NODE_HEIGHT;
  return NODE_HEIGHT + BRANCHES_HEIGHT + Math.max(...step.branches.map((b) => b.steps.reduce((sum, s) => sum + estimatedHeight(s), 0)));
}

/** Where each step starts in its chain, and the chain's end: `offsets[i]` is the sum of the heights before step i. */
export function chainOffsets(heights: readonly number[]): number[] {
  const offsets = new Array<number>(heights.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i] + heights[i];
  return offsets;
}

/**
 * The steps a view from `top` to `bottom` (in the chain's own pixels) shows, at least in part:
 * `first` inclusive, `last` exclusive.
 */
export function chainWindow(offsets: readonly number[], top: number, bottom: number): { first: number; last: number } {
  const n = offsets.length - 1;
  // The first step ending below the top, and the first starting at or past the bottom.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1] <= top) lo = mid + 1;
    else hi = mid;
  }
  const first = lo;
  hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid] < bottom) lo = mid + 1;
    else hi = mid;
  }
  return { first, last: Math.max(first, lo) };
}
