import type { KeyboardEvent } from 'react';
import { useStudio } from '../../../store/studio-store.ts';
import type { OutlineFlow } from '../analysis/outline-types.ts';
import {
  addCaseToSelected,
  deleteSelected,
  duplicateSelected,
  flowSteps,
  moveSelected,
  nestSelected,
  redoOnGraph,
  undoOnGraph,
  unwrapSelected,
  wrapSelected,
} from './graph-actions.ts';

/** The graph's keys, also listed in its toolbar's titles and in docs/flows.md. */
export const GRAPH_KEYS = {
  delete: 'Delete',
  duplicate: 'Ctrl+D',
  moveUp: 'Alt+↑',
  moveDown: 'Alt+↓',
  moveIn: 'Alt+→',
  moveOut: 'Alt+←',
  wrapSwitch: 'W',
  wrapLock: 'L',
  unwrap: 'U',
  addCase: 'C',
  undo: 'Ctrl+Z',
  redo: 'Ctrl+Shift+Z',
} as const;

/**
 * Keyboard equivalents of every graph edit, while the focus is on the graph (not in a field of
 * it): true when the key did something, so the caller can stop it there.
 */
export function onGraphKey(e: KeyboardEvent, flow: OutlineFlow, focusNode: (path: string) => void): boolean {
  const target = e.target as HTMLElement;
  if (target.closest('input, select, textarea, [contenteditable="true"]')) return false;
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key;
  if (mod && !e.altKey && key.toLowerCase() === 'z') {
    if (e.shiftKey) redoOnGraph();
    else undoOnGraph();
    return true;
  }
  if (mod && key.toLowerCase() === 'y') return (redoOnGraph(), true);
  if (mod && key.toLowerCase() === 'd') return duplicateSelected();
  if (e.altKey && key === 'ArrowUp') return moveSelected(flow, -1);
  if (e.altKey && key === 'ArrowDown') return moveSelected(flow, 1);
  if (e.altKey && key === 'ArrowRight') return nestSelected(flow, true);
  if (e.altKey && key === 'ArrowLeft') return nestSelected(flow, false);
  if (mod || e.altKey) return false;
  if (key === 'Delete' || key === 'Backspace') return deleteSelected();
  if (key === 'ArrowUp' || key === 'ArrowDown') return selectNeighbour(flow, key === 'ArrowUp' ? -1 : 1, focusNode);
  switch (key.toLowerCase()) {
    case 'w':
      return wrapSelected('switch');
    case 'l':
      return wrapSelected('lock');
    case 'u':
      return unwrapSelected();
    case 'c':
      return addCaseToSelected(flow);
    default:
      return false;
  }
}

/** Selects the step above or below the selected one, in document order. */
function selectNeighbour(flow: OutlineFlow, dir: -1 | 1, focusNode: (path: string) => void): boolean {
  const steps = flowSteps(flow);
  if (steps.length === 0) return false;
  const current = useStudio.getState().graphSelection.at(-1);
  const i = steps.findIndex((s) => s.path === current);
  const next = steps[i < 0 ? 0 : Math.min(steps.length - 1, Math.max(0, i + dir))];
  focusNode(next.path);
  return true;
}
