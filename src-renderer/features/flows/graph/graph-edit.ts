import { parseDocument, type Node } from 'yaml';
import type { DesignComponent, DesignSettings } from '../../../../shared/flow-design.ts';
import {
  addConnector,
  chainFollows,
  FlowEditError,
  insertStep,
  keysOf,
  type FlowEditResult,
  type PathFollow,
  type StepPlace,
} from '../../../../shared/flow-edits/index.ts';
import { breakpointsOfFile } from '../../../store/debugger-slice.ts';
import { fileKey } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { moveBreakpoints } from '../../debugger/debugger-actions.ts';
import { settingsFor } from '../analysis/block-snippet.ts';
import { editorCommands } from '../editor-commands.ts';
import { followCoverage, followStats } from './follow-graph-edit.ts';

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
  if (!commands.applyEdits(key, results.map((r) => r.edits), select ? offsetOf(text, select) : undefined)) return false;
  const follow = chainFollows(...results.map((r) => r.follow));
  carryMarks(file.integration, file.file, follow, text);
  // An edit that selects nothing new (a source setting) keeps the selection, on the paths it moved to.
  state.setGraphSelection(select ? [select] : state.graphSelection.map(follow).filter((p): p is string => p !== undefined));
  state.setNotice(undefined);
  return true;
}

/** Run counts, coverage and breakpoints follow their steps to their new paths. */
function carryMarks(integration: string, file: string, follow: PathFollow, text: string): void {
  const s = useStudio.getState();
  const testRun = s.testRuns[integration];
  useStudio.setState({
    runStats: followStats(s.runStats, integration, follow),
    ...(testRun ? { testRuns: { ...s.testRuns, [integration]: { ...testRun, coverage: followCoverage(testRun.coverage, follow) } } } : {}),
  });
  const moves: Array<{ id: number; line: number }> = [];
  for (const bp of breakpointsOfFile(s, integration, file)) {
    if (!bp.step) continue;
    const to = follow(bp.step);
    const at = to !== undefined && to !== bp.step ? offsetOf(text, to) : undefined;
    if (at !== undefined) moves.push({ id: bp.id, line: text.slice(0, lineStartOf(text, at)).split('\n').length });
  }
  if (moves.length > 0) void moveBreakpoints(integration, file, moves, text);
}

/** Where the node at a path starts in the text (a step: its first key, on its dash's line). */
export function offsetOf(text: string, path: string): number | undefined {
  try {
    const node = parseDocument(text, { uniqueKeys: false }).getIn(keysOf(path), true) as Node | undefined;
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
