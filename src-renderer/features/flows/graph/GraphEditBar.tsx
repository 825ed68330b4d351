import { useStudio } from '../../../store/studio-store.ts';
import type { OutlineFlow } from '../analysis/outline-types.ts';
import {
  addCaseToSelected,
  deleteSelected,
  duplicateSelected,
  flowSteps,
  moveSelected,
  redoOnGraph,
  undoOnGraph,
  unwrapSelected,
  wrapSelected,
} from './graph-actions.ts';
import { GRAPH_KEYS } from './graph-keys.ts';

const FACES: Record<string, string> = {
  Delete: '✕ Delete',
  Duplicate: 'Copy',
  'Move up': '↑',
  'Move down': '↓',
  'Wrap in switch': '⤷ switch',
  'Wrap in lock': '⤷ lock',
  Unwrap: '⤶ Unwrap',
  'Add case': '+ case',
  Undo: '↶',
  Redo: '↷',
};

/** The graph's edit buttons; each names its key. Buttons that cannot apply to the selection are disabled. */
export function GraphEditBar({ flow }: { flow: OutlineFlow }) {
  const selection = useStudio((s) => s.graphSelection);
  const steps = flowSteps(flow);
  const selectedSteps = steps.filter((s) => selection.includes(s.path));
  const one = selectedSteps.length === 1 ? selectedSteps[0] : undefined;
  const last = selection.at(-1);
  const caseSelected = last !== undefined && /\.switch\.cases\[\d+\]$/.test(last);
  const switchSelected = one?.block === 'switch' || caseSelected;
  // Short faces so the bar stays one or two rows in a narrow pane; the name and the key are in the label and title.
  const button = (label: string, key: string, enabled: boolean, run: () => unknown) => (
    <button type="button" disabled={!enabled} onClick={() => run()} title={`${label} (${key})`} aria-label={label} aria-keyshortcuts={key.replace('Alt+↑', 'Alt+ArrowUp').replace('Alt+↓', 'Alt+ArrowDown')}>
      {FACES[label] ?? label}
    </button>
  );
  return (
    <div className="graph-editbar" role="toolbar" aria-label="Graph edits">
      {button('Delete', GRAPH_KEYS.delete, selectedSteps.length > 0 || caseSelected, deleteSelected)}
      {button('Duplicate', GRAPH_KEYS.duplicate, one !== undefined, duplicateSelected)}
      {button('Move up', GRAPH_KEYS.moveUp, one !== undefined, () => moveSelected(flow, -1))}
      {button('Move down', GRAPH_KEYS.moveDown, one !== undefined, () => moveSelected(flow, 1))}
      {button('Wrap in switch', GRAPH_KEYS.wrapSwitch, selectedSteps.length > 0, () => wrapSelected('switch'))}
      {button('Wrap in lock', GRAPH_KEYS.wrapLock, selectedSteps.length > 0, () => wrapSelected('lock'))}
      {button('Unwrap', GRAPH_KEYS.unwrap, one?.block === 'switch' || one?.block === 'lock', unwrapSelected)}
      {button('Add case', GRAPH_KEYS.addCase, switchSelected, () => addCaseToSelected(flow))}
      <span className="spacer" />
      {button('Undo', GRAPH_KEYS.undo, true, undoOnGraph)}
      {button('Redo', GRAPH_KEYS.redo, true, redoOnGraph)}
    </div>
  );
}
