import type { Node } from 'yaml';
import type { DesignComponent, DesignSettings } from '../../../../shared/flow-design.ts';
import {
  addConnector,
  chainFollows,
  FlowEditError,
  insertStep,
  keysOf,
  parsedDefinition,
  type FlowEditResult,
  type PathFollow,
  type StepPlace,
} from '../../../../shared/flow-edits/index.ts';
import { breakpointsOfFile } from '../../../store/debugger-slice.ts';
import { cursorFlowOf, fileKey, nextMoment } from '../../../store/flows-slice.ts';
import { useStudio, type StudioState } from '../../../store/studio-store.ts';
import { moveBreakpoints } from '../../debugger/debugger-actions.ts';
import { settingsFor } from '../analysis/block-snippet.ts';
import { editorCommands } from '../editor-commands.ts';
import { followCoverage, followStats } from './follow-graph-edit.ts';
import { outlineNow } from './graph-outline.ts';
import { spanAt } from './graph-paths.ts';

/** One edit of the open file's text, e.g. `(text) => deleteStep(text, path)`. */
export type GraphEdit = (text: string) => FlowEditResult;

/**
 * Makes graph edits on the editor's model: each edit's replacements go into Monaco as one step of
 * its undo history (so Ctrl+Z undoes a drop as it undoes typing), the text cursor goes to the
 * step the edit selects, and run counts, coverage and breakpoints move with their steps.
 * Edits run in turn, each on the text the previous one left. False, with a notice saying why,
 * when the edit cannot be made.
 */
export function editOnGraph(...edits: GraphEdit[]): boolean {
  const state = useStudio.getState();
  const commands = editorCommands();
  const file = state.openFile;
  if (!file || !commands) return false;
  const key = fileKey(file);
  let text = commands.text(key);
  if (text === undefined) return false;
  const results: FlowEditResult[] = [];
  try {
    for (const edit of edits) {
      const r = edit(text);
      results.push(r);
      text = r.text;
    }
  } catch (err) {
    if (!(err instanceof FlowEditError)) throw err;
    state.setNotice(`Cannot do that on the graph: ${err.message}`);
    return false;
  }
  const select = results.at(-1)?.select;
  const active = document.activeElement;
  const graphHadFocus = active instanceof HTMLElement && active.closest('.graph') !== null;
  const version = commands.applyEdits(key, results.map((r) => r.edits));
  if (version === undefined) return false;
  const follow = chainFollows(...results.map((r) => r.follow));
  // One store update: the new outline, the selection and the marks moved with their steps, so
  // the graph redraws once, in this task.
  const focus = (select && /^flows\.([^.[]+)/.exec(select)?.[1]) ?? state.graphFlow ?? cursorFlowOf(state);
  const outline = state.designReference ? outlineNow(state.designReference, key, version, text, focus) : undefined;
  const selection = select ? [select] : state.graphSelection.map(follow).filter((p): p is string => p !== undefined);
  useStudio.setState({
    ...(outline ? { outline: { key, version, outline } } : {}),
    graphSelection: selection,
    graphSelectedAt: nextMoment(),
    notice: undefined,
    ...followedMarks(file.integration, follow),
  });
  // Where a node starts, from the outline just read (the text is parsed only for one it lacks).
  const startOf = (path: string): number | undefined => (outline ? spanAt(outline, path)?.[0] : undefined) ?? offsetOf(text, path);
  const caret = select ? startOf(select) : undefined;
  if (caret !== undefined) commands.placeCaret(key, caret);
  moveBreakpointsWith(file.integration, file.file, follow, text, startOf);
  // A removed or redrawn node may have held the focus: the keys go on working on the graph.
  if (graphHadFocus) requestAnimationFrame(() => refocusGraph(selection.at(-1)));
  return true;
}

function refocusGraph(path: string | undefined): void {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body && active.closest('.graph')) return;
  const node = path ? document.querySelector<HTMLElement>(`.graph [data-path="${CSS.escape(path)}"]`) : null;
  (node ?? document.querySelector<HTMLElement>('.graph'))?.focus({ preventScroll: true });
}

/** Run counts and coverage follow their steps to their new paths. */
function followedMarks(integration: string, follow: PathFollow): Partial<StudioState> {
  const s = useStudio.getState();
  const testRun = s.testRuns[integration];
  return {
    runStats: followStats(s.runStats, integration, follow),
    ...(testRun ? { testRuns: { ...s.testRuns, [integration]: { ...testRun, coverage: followCoverage(testRun.coverage, follow) } } } : {}),
  };
}

/** Breakpoints on moved steps move with them (the studio keeps them by line and step). */
function moveBreakpointsWith(integration: string, file: string, follow: PathFollow, text: string, startOf: (path: string) => number | undefined): void {
  const moves: Array<{ id: number; line: number }> = [];
  for (const bp of breakpointsOfFile(useStudio.getState(), integration, file)) {
    if (!bp.step) continue;
    const to = follow(bp.step);
    const at = to !== undefined && to !== bp.step ? startOf(to) : undefined;
    if (at !== undefined) moves.push({ id: bp.id, line: text.slice(0, lineStartOf(text, at)).split('\n').length });
  }
  if (moves.length > 0) void moveBreakpoints(integration, file, moves, text);
}

/** Where the node at a path starts in the text (a step: its first key, on its dash's line). */
export function offsetOf(text: string, path: string): number | undefined {
  try {
    const node = parsedDefinition(text).getIn(keysOf(path), true) as Node | undefined;
    return node?.range?.[0];
  } catch {
    return undefined;
  }
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** What a new node is written with: its required settings only (the form offers the rest). */
export function requiredSettings(spec: DesignSettings, known: Parameters<typeof settingsFor>[1]): Record<string, unknown> {
  const all = settingsFor(spec, known);
  return Object.fromEntries(Object.entries(all).filter(([name]) => spec[name]?.required));
}

/**
 * Inserts a new block at a place with the settings it needs to load (declared connectors picked,
 * examples elsewhere); a block that needs a connector the file lacks brings one along.
 */
export function insertBlock(component: DesignComponent, place: StepPlace): boolean {
  const { outline, designReference } = useStudio.getState();
  const known = { outline: outline?.outline ?? { flows: [], connectors: [] }, flow: /^flows\.([^.]+)/.exec(place.chain)?.[1] };
  const edits: GraphEdit[] = [];
  for (const setting of Object.values(component.settings)) {
    if (!setting.required || !setting.connectorType || known.outline.connectors.some((c) => c.type === setting.connectorType)) continue;
    const connector = designReference?.components.find((c) => c.kind === 'connector' && c.type === setting.connectorType);
    if (!connector) continue;
    const name = setting.connectorType.replace(/[^A-Za-z0-9]+/g, '-');
    edits.push((text) => addConnector(text, name, { type: connector.type, ...requiredSettings(connector.settings, known) }));
    known.outline = { ...known.outline, connectors: [...known.outline.connectors, { name, type: connector.type, span: [0, 0] }] };
  }
  const step = { [component.type]: requiredSettings(component.settings, known) };
  edits.push((text) => insertStep(text, place, step));
  return editOnGraph(...edits);
}
