import {
  addCase,
  deleteStep,
  duplicateStep,
  moveStep,
  placeOf,
  removeCase,
  unwrapStep,
  wrapSteps,
  type StepPlace,
} from '../../../../shared/flow-edits/index.ts';
import type { DesignComponent } from '../../../../shared/flow-design.ts';
import { cursorFlowOf, fileKey } from '../../../store/flows-slice.ts';
import { useStudio, type StudioState } from '../../../store/studio-store.ts';
import type { OutlineFlow, OutlineStep } from '../analysis/outline-types.ts';
import { editorCommands } from '../editor-commands.ts';
import { editOnGraph, insertBlock, type GraphEdit } from './graph-edit.ts';

/**
 * What the graph's buttons and keys do to the selected nodes. Each is a graph edit of the text
 * (see graph-edit.ts); the selection is read from the store, the flow's shape from its outline.
 */

const STEP = /\[\d+\]$/;
const isStep = (path: string): boolean => STEP.test(path) && !/\.cases\[\d+\]$/.test(path);
const selectedSteps = (): string[] => useStudio.getState().graphSelection.filter(isStep);

/** The step owning a nested chain (`flows.f.steps[2]` for `flows.f.steps[2].switch.cases[0].steps`), if it is one. */
export function ownerOf(chain: string): string | undefined {
  return /^(.*\])\.[^.[\]]+\.[^.[\]]+(?:\[\d+\]\.[^.[\]]+)?$/.exec(chain)?.[1];
}

/** Every step of a flow in document order (a step before those inside it). */
export function flowSteps(flow: OutlineFlow): OutlineStep[] {
  const out: OutlineStep[] = [];
  const walk = (steps: OutlineStep[]): void => {
    for (const s of steps) {
      out.push(s);
      for (const b of s.branches) walk(b.steps);
    }
  };
  walk(flow.steps);
  walk(flow.onError);
  return out;
}

/** The flows of the open file's outline, when the outline is of that file. */
export function openFlows(s: Pick<StudioState, 'openFile' | 'outline'>): OutlineFlow[] {
  return s.openFile && s.outline?.key === fileKey(s.openFile) ? s.outline.outline.flows : [];
}

/** The flow the graph shows: the one picked above it, else the one the text cursor is in, else the file's first. */
export function shownFlow(flows: readonly OutlineFlow[], picked: string | undefined, cursorFlow: string | undefined): OutlineFlow | undefined {
  return flows.find((f) => f.name === picked) ?? flows.find((f) => f.name === cursorFlow) ?? flows[0];
}

/**
 * Adds a block to the flow the graph shows, where a click on the graph's own strip adds it: the
 * keyboard's way to do what dragging a block onto the graph does.
 */
export function addToShownFlow(component: DesignComponent): boolean {
  const s = useStudio.getState();
  const flow = shownFlow(openFlows(s), s.graphFlow, cursorFlowOf(s));
  if (!flow || flow.brief) {
    s.setNotice(flow ? `Reading ${flow.name}… try again in a moment` : 'Open a definition file with a flow to add blocks to it');
    return false;
  }
  return insertBlock(component, insertPlace(flow));
}

/** How many steps a chain holds now. */
export function chainLength(flow: OutlineFlow, chain: string): number {
  if (chain === `flows.${flow.name}.steps`) return flow.steps.length;
  if (chain === `flows.${flow.name}.onError`) return flow.onError.length;
  for (const s of flowSteps(flow)) for (const b of s.branches) if (b.path === chain) return b.steps.length;
  return 0;
}

/** Where a new block goes: after the selected step, first in a selected branch, else at the end of the flow's steps. */
export function insertPlace(flow: OutlineFlow): StepPlace {
  const selected = useStudio.getState().graphSelection.at(-1);
  if (selected && isStep(selected) && selected.startsWith(`flows.${flow.name}.`)) {
    const { chain, index } = placeOf(selected);
    return { chain, index: index + 1 };
  }
  const chain = selected && /\.cases\[\d+\]$/.test(selected) ? `${selected}.steps` : selected;
  if (chain && chain.startsWith(`flows.${flow.name}.`) && /(steps|default|onError)$/.test(chain)) return { chain, index: chainLength(flow, chain) };
  return { chain: `flows.${flow.name}.steps`, index: flow.steps.length };
}

export function deleteSelected(): boolean {
  const steps = selectedSteps();
  const selected = useStudio.getState().graphSelection.at(-1);
  const caseOf = selected && /^(.*)\.switch\.cases\[(\d+)\](?:\.steps)?$/.exec(selected);
  if (steps.length === 0 && caseOf) return editOnGraph((t) => removeCase(t, caseOf[1], Number(caseOf[2])));
  if (steps.length === 0) return false;
  // Later steps first, so the paths of the earlier ones still hold; a step inside a deleted one goes with it.
  const paths = steps.filter((p) => !steps.some((q) => q !== p && p.startsWith(`${q}.`))).sort(byPlaceDescending);
  return editOnGraph(...paths.map((p): GraphEdit => (t) => deleteStep(t, p)));
}

export function duplicateSelected(): boolean {
  const [path] = selectedSteps();
  return path ? editOnGraph((t) => duplicateStep(t, path)) : false;
}

/** Moves the selected step one place up or down; past the end of a branch it leaves the branch, beside its owner. */
export function moveSelected(flow: OutlineFlow, dir: -1 | 1): boolean {
  const [path] = selectedSteps();
  if (!path) return false;
  const { chain, index } = placeOf(path);
  const n = chainLength(flow, chain);
  if (dir < 0 && index > 0) return editOnGraph((t) => moveStep(t, path, { chain, index: index - 1 }));
  if (dir > 0 && index < n - 1) return editOnGraph((t) => moveStep(t, path, { chain, index: index + 2 }));
  const owner = ownerOf(chain);
  if (!owner) return false;
  const at = placeOf(owner);
  return editOnGraph((t) => moveStep(t, path, { chain: at.chain, index: at.index + (dir > 0 ? 1 : 0) }));
}

/** Moves the selected step into the first branch of the step above it (at its end), or out of its branch (after the owner). */
export function nestSelected(flow: OutlineFlow, inward: boolean): boolean {
  const [path] = selectedSteps();
  if (!path) return false;
  const { chain, index } = placeOf(path);
  if (!inward) {
    const owner = ownerOf(chain);
    if (!owner) return false;
    const at = placeOf(owner);
    return editOnGraph((t) => moveStep(t, path, { chain: at.chain, index: at.index + 1 }));
  }
  const above = flowSteps(flow).find((s) => s.path === `${chain}[${index - 1}]`);
  const branch = above?.branches[0];
  if (!branch) return false;
  return editOnGraph((t) => moveStep(t, path, { chain: branch.path, index: branch.steps.length }));
}

export function wrapSelected(kind: 'switch' | 'lock'): boolean {
  const steps = selectedSteps();
  if (steps.length === 0) return false;
  return editOnGraph((t) => wrapSteps(t, steps, kind === 'switch' ? { switch: { when: 'true' } } : { lock: { name: '"lock"' } }));
}

export function unwrapSelected(): boolean {
  const [path] = selectedSteps();
  return path ? editOnGraph((t) => unwrapStep(t, path)) : false;
}

/** Adds a case to the selected switch (or the switch of a selected branch). */
export function addCaseToSelected(flow: OutlineFlow): boolean {
  const selected = useStudio.getState().graphSelection.at(-1);
  if (!selected) return false;
  const owner = isStep(selected) ? selected : ownerOf(selected.replace(/\.switch\.cases\[\d+\]$/, '.switch.cases[0].steps'));
  const step = flowSteps(flow).find((s) => s.path === owner);
  if (!step || step.block !== 'switch') return false;
  return editOnGraph((t) => addCase(t, step.path, 'false'));
}

export function undoOnGraph(): void {
  editorCommands()?.undo();
}

export function redoOnGraph(): void {
  editorCommands()?.redo();
}

function byPlaceDescending(a: string, b: string): number {
  return b.localeCompare(a, 'en', { numeric: true });
}
