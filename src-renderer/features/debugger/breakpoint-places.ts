import type { StudioBreakpoint } from '../../../shared/debugger-types.ts';
import type { DesignReference } from '../../../shared/flow-design.ts';
import { chainShapesOf, followStep, type ChainShapes, type StepLocation } from '../../../shared/step-paths.ts';

let made: { reference: DesignReference; shapes: ChainShapes } | undefined;

/** Where blocks keep nested steps, read once per design reference; undefined until it arrives. */
export function shapesOfReference(reference: DesignReference | undefined): ChainShapes | undefined {
  if (!reference) return undefined;
  if (made?.reference !== reference) made = { reference, shapes: chainShapesOf(reference.components.filter((c) => c.kind === 'block')) };
  return made.shapes;
}

/**
 * Where each breakpoint's step is in an editor's text. Breakpoints are kept against the saved
 * file; in a text with unsaved edits (lines typed above a step, a step moved) the same step may
 * stand elsewhere, and the gutter and the graph show it there. A breakpoint whose step the text
 * does not hold is left out.
 */
export function placeBreakpoints(steps: readonly StepLocation[], bps: readonly StudioBreakpoint[]): Map<number, StepLocation> {
  const out = new Map<number, StepLocation>();
  for (const b of bps) {
    if (b.step === undefined) continue;
    const found = followStep(steps, { path: b.step, line: b.line, ...(b.block !== undefined ? { block: b.block } : {}), ...(b.digest !== undefined ? { digest: b.digest } : {}) });
    if (found) out.set(b.id, found);
  }
  return out;
}
