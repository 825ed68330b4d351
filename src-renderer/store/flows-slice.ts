import type { StateCreator } from 'zustand';
import type { TraceFeedEvent } from '../../shared/feed-events.ts';
import type { DesignReference } from '../../shared/flow-design.ts';
import type { RunProblem } from '../../shared/studio-api.ts';
import type { CelScope } from '../features/flows/analysis/cel-scope.ts';
import type { CursorContext } from '../features/flows/analysis/cursor-context.ts';
import type { DefinitionOutline } from '../features/flows/analysis/outline-types.ts';
import { emptyRunStats, foldTraces, type FlowRunStats } from '../features/flows/run-stats.ts';
import type { StudioState } from './studio-store.ts';

/** A definition file of an integration; its key is `<integration>/<file>`. */
export interface FileRef {
  integration: string;
  file: string;
}

export const fileKey = (f: FileRef): string => `${f.integration}/${f.file}`;

/** The flow the cursor is in, in the open file: the previous file's cursor says nothing of this one. */
export function cursorFlowOf(s: Pick<FlowsSlice, 'cursor' | 'openFile'>): string | undefined {
  return s.cursor && s.openFile && s.cursor.key === fileKey(s.openFile) ? s.cursor.context.flow : undefined;
}

/*
 * Orders caret moves and selections made on the graph. The cursor context is read a pause after
 * the caret moved, by a worker: a node picked on the graph meanwhile is newer, and that late
 * context must not take the selection back to the step the caret was in.
 */
let lastMoment = 0;
export const nextMoment = (): number => ++lastMoment;

export interface FlowsSlice {
  designReference: DesignReference | undefined;
  /** The file in the editor. */
  openFile: FileRef | undefined;
  /** Files whose editor buffer differs from what was last saved or read. */
  dirtyFiles: Record<string, boolean>;
  /** Load problems of each integration as the editor's buffers stand, by integration id. */
  designProblems: Record<string, RunProblem[]>;
  /** What the JSON Schema check (monaco-yaml) found in each opened file, by file key. */
  schemaProblems: Record<string, RunProblem[]>;
  /** Outline of the open file, for the graph; `version` is the editor buffer's version. */
  outline: { key: string; version: number; outline: DefinitionOutline } | undefined;
  /** What the cursor is in, for the CEL playground and the graph; `movedAt` is the nextMoment() of the caret move it was read for. */
  cursor: { key: string; offset: number; context: CursorContext; scope?: CelScope; movedAt: number } | undefined;
  /** The flow the graph shows; follows the cursor unless the person picked one (see setCursor). */
  graphFlow: string | undefined;
  /**
   * What is selected on the graph: step paths (several for a wrap), a chain path (a branch
   * label, `flows.f.onError`) or `flows.f.source`. Follows the text cursor's step.
   */
  graphSelection: string[];
  /** The nextMoment() of the last selection made on the graph (a click, a graph edit), not by following the cursor. */
  graphSelectedAt: number;
  sidePane: 'graph' | 'palette';
  bottomPane: 'problems' | 'playground';
  runStats: FlowRunStats;
  /** The studio's count of runs not traced under load when the counts were last reset: the graph says how many ran since. */
  untracedAtReset: number;
  setDesignReference(ref: DesignReference): void;
  setOpenFile(file: FileRef | undefined): void;
  setFileDirty(key: string, dirty: boolean): void;
  setDesignProblems(integration: string, problems: RunProblem[]): void;
  setSchemaProblems(key: string, problems: RunProblem[]): void;
  setOutline(outline: FlowsSlice['outline']): void;
  setCursor(cursor: FlowsSlice['cursor']): void;
  setGraphFlow(flow: string | undefined): void;
  setGraphSelection(selection: string[]): void;
  setSidePane(pane: FlowsSlice['sidePane']): void;
  setBottomPane(pane: FlowsSlice['bottomPane']): void;
  /** Folds new trace events into the run stats; `open` holds unfinished runs between calls. */
  foldRunTraces(events: readonly TraceFeedEvent[], open: Map<string, Record<string, TraceFeedEvent['trace']['outcome']>>): void;
  resetRunStats(): void;
}

export const createFlowsSlice: StateCreator<StudioState, [], [], FlowsSlice> = (set) => ({
  designReference: undefined,
  openFile: undefined,
  dirtyFiles: {},
  designProblems: {},
  schemaProblems: {},
  outline: undefined,
  cursor: undefined,
  graphFlow: undefined,
  graphSelection: [],
  graphSelectedAt: 0,
  sidePane: 'graph',
  bottomPane: 'problems',
  runStats: emptyRunStats(),
  untracedAtReset: 0,
  setDesignReference: (designReference) => set({ designReference }),
  // Another file has its own flows: a flow picked in the graph for the previous one goes.
  setOpenFile: (openFile) =>
    set((s) => (openFile && s.openFile && fileKey(openFile) === fileKey(s.openFile) ? { openFile } : { openFile, graphFlow: undefined, graphSelection: [] })),
  setFileDirty: (key, dirty) =>
    set((s) => {
      if (Boolean(s.dirtyFiles[key]) === dirty) return s;
      const dirtyFiles = { ...s.dirtyFiles };
      if (dirty) dirtyFiles[key] = true;
      else delete dirtyFiles[key];
      return { dirtyFiles };
    }),
  // Checks repeat on every pause and usually find the same; an unchanged list keeps its identity.
  setDesignProblems: (integration, problems) =>
    set((s) => (sameProblems(s.designProblems[integration], problems) ? s : { designProblems: { ...s.designProblems, [integration]: problems } })),
  setSchemaProblems: (key, problems) =>
    set((s) => (sameProblems(s.schemaProblems[key], problems) ? s : { schemaProblems: { ...s.schemaProblems, [key]: problems } })),
  setOutline: (outline) => set({ outline }),
  // A picked flow stays until the cursor moves into another flow of the same file. The first
  // context of a file just opened is not a move: it can arrive after the person picked a flow.
  // The graph selects the step the text cursor is in, unless it is one of several selected there,
  // or the graph selected something else since the caret moved there.
  setCursor: (cursor) =>
    set((s) => {
      const step = cursor?.context.stepPath;
      // A selected branch or case of that step (its label put the cursor there) stays selected.
      const kept = !step || s.graphSelection.some((p) => p === step || p.startsWith(`${step}.`)) || cursor!.movedAt < s.graphSelectedAt;
      const selection = kept ? {} : { graphSelection: [step] };
      return s.cursor && cursor && s.cursor.key === cursor.key && s.cursor.context.flow !== cursor.context.flow ? { cursor, graphFlow: undefined, ...selection } : { cursor, ...selection };
    }),
  setGraphFlow: (graphFlow) => set({ graphFlow }),
  setGraphSelection: (graphSelection) => set({ graphSelection, graphSelectedAt: nextMoment() }),
  setSidePane: (sidePane) => set({ sidePane }),
  setBottomPane: (bottomPane) => set({ bottomPane }),
  foldRunTraces: (events, open) => set((s) => ({ runStats: foldTraces(s.runStats, events, open) })),
  resetRunStats: () => set((s) => ({ runStats: emptyRunStats(), untracedAtReset: s.runsNotTraced })),
});

function sameProblems(a: readonly RunProblem[] | undefined, b: readonly RunProblem[]): boolean {
  return a !== undefined && a.length === b.length && a.every((p, i) => p.file === b[i].file && p.line === b[i].line && p.col === b[i].col && p.message === b[i].message && p.path === b[i].path);
}
