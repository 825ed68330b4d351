import { useMemo, useRef, useState, type DragEvent } from 'react';
import { moveStep } from '../../../../shared/flow-edits/index.ts';
import { stepLocations } from '../../../../shared/step-paths.ts';
import { studio } from '../../../api/studio-client.ts';
import { cursorFlowOf, fileKey } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { placeBreakpoints, shapesOfReference } from '../../debugger/breakpoint-places.ts';
import { toggleBreakpointAt } from '../../debugger/debugger-actions.ts';
import type { OutlineFlow } from '../analysis/outline-types.ts';
import { editorCommands, openFileAt } from '../editor-commands.ts';
import { statsKey } from '../run-stats.ts';
import { counted } from '../../../shell/format.ts';
import { Counts } from './Counts.tsx';
import { flowSteps, shownFlow } from './graph-actions.ts';
import { editOnGraph, insertBlock } from './graph-edit.ts';
import { onGraphKey } from './graph-keys.ts';
import { countsLabel, spanAt } from './graph-paths.ts';
import { GraphCanvas } from './GraphCanvas.tsx';
import { GraphEditBar } from './GraphEditBar.tsx';
import { GraphPalette } from './GraphPalette.tsx';
import { BLOCK_DRAG, GraphChain, STEP_DRAG, type GraphContext } from './GraphStep.tsx';
import { VirtualChain } from './VirtualChain.tsx';
import { NewFlowForm } from './NewFlowForm.tsx';
import { StepSettings } from './StepSettings.tsx';
import { GraphSyntaxNotice } from './GraphSyntaxNotice.tsx';

/** 195080 as `195K`: the note must fit beside the flow picker in a narrow pane; the title has the idea. */
const COMPACT = new Intl.NumberFormat('en', { notation: 'compact' });

/**
 * The diagram of one flow of the open file, and a second editor of it: its source, its steps with
 * switch branches side by side, its error chain. Nodes are selected (the text cursor follows),
 * dragged to move, blocks dragged in from the palette; every edit is a minimal edit of the YAML
 * in the editor (see graph-edit.ts). After runs each node shows its message counts and the last
 * message's path is lit.
 */
export function FlowGraph() {
  const openFile = useStudio((s) => s.openFile);
  const outline = useStudio((s) => s.outline);
  const cursorFlow = useStudio(cursorFlowOf);
  const picked = useStudio((s) => s.graphFlow);
  const setGraphFlow = useStudio((s) => s.setGraphFlow);
  const resetRunStats = useStudio((s) => s.resetRunStats);
  const selection = useStudio((s) => s.graphSelection);
  const untraced = useStudio((s) => s.runsNotTraced - s.untracedAtReset);
  const [addingFlow, setAddingFlow] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const current = openFile && outline?.key === fileKey(openFile) ? outline.outline : undefined;
  const flows = current?.flows ?? [];
  const flow = shownFlow(flows, picked, cursorFlow);
  const integration = openFile?.integration ?? '';
  const flowKey = statsKey(integration, flow?.name ?? '');
  const lastOutcome = useStudio((s) => s.runStats.lastRun[flowKey]?.outcome);
  const sourceType = flow?.source?.type;
  const onFailure = useStudio((s) => s.designReference?.components.find((c) => c.kind === 'source' && c.type === sourceType)?.onFailure);
  const runs = useStudio((s) => s.runStats.runs[flowKey]);
  const testRun = useStudio((s) => s.testRuns[integration]);
  const coverage = useMemo(() => (testRun ? new Map(testRun.coverage.steps.map((c) => [c.path, c.hits])) : undefined), [testRun]);
  const branchCoverage = useMemo(() => (testRun ? new Map(testRun.coverage.branches.map((b) => [`${b.step}|${b.label}`, b.hits])) : undefined), [testRun]);
  const selected = useMemo(() => new Set(selection), [selection]);
  const allBreakpoints = useStudio((s) => s.breakpoints);
  const pausedRuns = useStudio((s) => s.pausedRuns);
  const file = openFile?.file;
  const unsaved = useStudio((s) => (openFile ? s.dirtyFiles[fileKey(openFile)] === true : false));
  const reference = useStudio((s) => s.designReference);
  const breakpoints = useMemo(() => {
    const mine = allBreakpoints.filter((b) => b.integration === integration && b.file === file && b.step !== undefined);
    // Kept against the saved file: with unsaved edits (a step added above) a step stands at another path of the text shown.
    const shapes = unsaved ? shapesOfReference(reference) : undefined;
    const text = shapes && openFile && current ? editorCommands()?.text(fileKey(openFile)) : undefined;
    if (!shapes || text === undefined) return new Map(mine.map((b) => [b.step!, b]));
    const places = placeBreakpoints(stepLocations(text, shapes), mine);
    return new Map(mine.flatMap((b) => (places.has(b.id) ? [[places.get(b.id)!.path, b] as const] : [])));
  }, [allBreakpoints, integration, file, unsaved, reference, openFile, current]);
  const pausedAt = useMemo(() => new Set(pausedRuns.filter((p) => p.integration === integration && p.frames[0]?.file === file).map((p) => p.step)), [pausedRuns, integration, file]);

  const flowName = flow?.name ?? '';
  const ctx = useMemo<GraphContext>(
    () => ({
      integration,
      flow: flowName,
      select: (path: string, add: boolean) => {
        const state = useStudio.getState();
        const now = state.graphSelection;
        const next = add ? (now.includes(path) ? now.filter((p) => p !== path) : [...now, path]) : [path];
        state.setGraphSelection(next);
        // The span as the text is now: a node not drawn again since an edit above it holds an old one.
        const span = state.outline ? spanAt(state.outline.outline, path) : undefined;
        if (span && openFile && next.includes(path)) editorCommands()?.selectSpan(fileKey(openFile), span, false);
      },
      showFlow: (name: string) => void showFlow(name),
      drop: (chain: string, index: number, e: DragEvent) => dropOnGraph(chain, index, e),
      coverage,
      branchCoverage,
      breakpoints,
      pausedAt,
      toggleBreakpoint: (path: string) => openFile && void toggleStepBreakpoint(openFile, path),
    }),
    [integration, flowName, openFile, coverage, branchCoverage, breakpoints, pausedAt],
  );

  if (!openFile) return <p className="muted pane-empty">Open a definition file to see its flows.</p>;
  if (/\.test\.ya?ml$/.test(openFile.file)) {
    return (
      <div className="muted pane-empty">
        <p>{openFile.file} holds flow tests: they run from the Tests panel (or <code>flow-studio test</code>), never with the integration, and saving them reloads nothing.</p>
        <button type="button" onClick={() => useStudio.setState({ panel: 'tests', testsIntegration: integration })}>
          Open Tests
        </button>
      </div>
    );
  }
  if (!current) return <p className="muted pane-empty">Reading {openFile.file}…</p>;
  if (!flow) {
    return (
      <div className="pane-empty graph-no-flows" role="region" aria-label="Flow graph">
        <p className="muted">{openFile.file} declares no flows yet. Add one with its source:</p>
        <NewFlowForm outline={current} />
      </div>
    );
  }
  if (flow.brief) return <p className="muted pane-empty">Reading {flow.name}…</p>;
  const focusNode = (path: string): void => {
    ctx.select(path, false);
    // A step out of view is drawn once the chain has scrolled to it (VirtualChain): focus it then.
    const focus = (frames: number): void => {
      const node = root.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`);
      if (node) node.focus();
      else if (frames > 0) requestAnimationFrame(() => focus(frames - 1));
    };
    focus(3);
  };

  return (
    <div
      className="graph"
      role="region"
      aria-label={`Flow graph of ${flow.name}`}
      ref={root}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.target as HTMLElement).classList.contains('graph-node')) {
          // Enter on a selected node goes to its YAML in the editor.
          editorCommands()?.focus();
          e.preventDefault();
          return;
        }
        if (onGraphKey(e, flow, focusNode)) {
          e.preventDefault();
          e.stopPropagation();
        }
      }}
    >
      <div className="graph-toolbar">
        <label>
          <span className="muted">Flow </span>
          <select aria-label="Flow shown in the graph" value={flow.name} onChange={(e) => setGraphFlow(e.target.value)}>
            {flows.map((f) => (
              <option key={f.name} value={f.name}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="link" onClick={() => setAddingFlow(!addingFlow)} aria-expanded={addingFlow}>
          New flow
        </button>
        {untraced > 0 ? (
          <span
            className="muted graph-untraced"
            data-testid="graph-untraced"
            title={`${counted(untraced, 'run')} went untraced since the counts were reset; the counts are of traced runs. Under load a runtime traces at most FLOW_TRACE_SATURATED_RATE runs a second (250 in the studio unless set) and answers the others without tracing them.`}
          >
            +{COMPACT.format(untraced)} untraced
          </span>
        ) : null}
        <button type="button" className="link" onClick={resetRunStats} title="Start counting messages from zero">
          Reset counts
        </button>
      </div>
      {addingFlow ? <NewFlowForm outline={current} onDone={() => setAddingFlow(false)} /> : null}
      <GraphSyntaxNotice integration={integration} file={openFile.file} />
      <GraphEditBar flow={flow} />
      <GraphPalette flow={flow} />
      <GraphCanvas steps={flowSteps(flow).length} flowName={flow.name}>
        <Source flow={flow} onSelect={() => ctx.select(`flows.${flow.name}.source`, false)} selected={selected.has(`flows.${flow.name}.source`)} runsLabel={countsLabel(runs)} runs={runs} lastOutcome={lastOutcome} />
        <VirtualChain chain={`flows.${flow.name}.steps`} steps={flow.steps} ctx={ctx} empty="no steps: the message is the result as it came" />
        <div className="graph-error-chain" role="group" aria-label="Error chain">
          <button
            type="button"
            className={`error-chain-label branch-label${selected.has(`flows.${flow.name}.onError`) ? ' selected' : ''}`}
            data-path={`flows.${flow.name}.onError`}
            aria-pressed={selected.has(`flows.${flow.name}.onError`)}
            onClick={() => ctx.select(`flows.${flow.name}.onError`, false)}
          >
            on error
          </button>
          <GraphChain chain={`flows.${flow.name}.onError`} steps={flow.onError} ctx={ctx} empty={`none: ${unhandledFailure(flow.source?.type, onFailure)}`} />
        </div>
      </GraphCanvas>
      <StepSettings flow={flow} outline={current} />
    </div>
  );
}

/** What the empty error chain says: what the source does with a failed run (its spec's words). */
function unhandledFailure(sourceType: string | undefined, onFailure: string | undefined): string {
  if (sourceType === undefined) return 'the failure goes back to the flow-ref step that called this flow';
  // Markdown's code marks read as noise in a one-line label.
  return onFailure?.replaceAll('`', '') ?? 'the run ends failed';
}

/** A graph step dropped at a place moves there; a palette block dropped there is inserted. */
function dropOnGraph(chain: string, index: number, e: DragEvent): void {
  const step = e.dataTransfer.getData(STEP_DRAG);
  if (step) {
    editOnGraph((t) => moveStep(t, step, { chain, index }));
    return;
  }
  const type = e.dataTransfer.getData(BLOCK_DRAG);
  const component = useStudio.getState().designReference?.components.find((c) => c.kind === 'block' && c.type === type);
  if (component) insertBlock(component, { chain, index });
}

function Source({
  flow,
  onSelect,
  selected,
  runs,
  runsLabel,
  lastOutcome,
}: {
  flow: OutlineFlow;
  onSelect(): void;
  selected: boolean;
  runs: Parameters<typeof Counts>[0]['counts'];
  runsLabel: string;
  lastOutcome?: string;
}) {
  return (
    <button
      type="button"
      className={`graph-node graph-source${lastOutcome ? ` last-${lastOutcome}` : ''}${selected ? ' selected' : ''}`}
      data-path={`flows.${flow.name}.source`}
      aria-pressed={selected}
      aria-label={`source of ${flow.name}: ${flow.source ? `${flow.source.type} ${flow.source.detail}` : 'none'}; ${runsLabel}`}
      onClick={onSelect}
    >
      <span className="node-title">
        <span className="node-block">{flow.source ? flow.source.type : 'no source'}</span>
        <span className="node-name">{flow.name}</span>
      </span>
      <span className="node-detail">{flow.source ? flow.source.detail : 'runs when another flow calls it (flow-ref)'}</span>
      <Counts counts={runs} />
    </button>
  );
}

/** A node's breakpoint toggle: removes the step's breakpoints, or sets one on the step, at its line as the editor holds it. */
async function toggleStepBreakpoint(file: { integration: string; file: string }, path: string): Promise<void> {
  const key = fileKey(file);
  const outline = useStudio.getState().outline;
  const span = outline?.key === key ? spanAt(outline.outline, path) : undefined;
  const line = span ? editorCommands()?.lineOf(key, span[0]) : undefined;
  if (line === undefined) return useStudio.getState().setNotice(`open ${file.file} in the editor to set a breakpoint from the graph`);
  const text = editorCommands()?.text(key);
  await toggleBreakpointAt(file.integration, file.file, line, text !== undefined ? { text, unsaved: useStudio.getState().dirtyFiles[key] === true } : undefined);
}

/** Shows a called flow: in this file, or in the other definition file that declares it. */
async function showFlow(name: string): Promise<void> {
  const { openFile, outline, integrations, setGraphFlow } = useStudio.getState();
  if (!openFile) return;
  setGraphFlow(name);
  const here = outline?.outline.flows.find((f) => f.name === name);
  if (here) return editorCommands()?.selectSpan(fileKey(openFile), here.keySpan);
  const files = integrations.find((i) => i.id === openFile.integration)?.definitionFiles ?? [];
  for (const file of files) {
    if (file === openFile.file) continue;
    const text = await studio.readFile(openFile.integration, file).catch(() => '');
    const lines = text.split('\n');
    const line = lines.findIndex((l) => new RegExp(`^\\s+${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`).test(l));
    if (line >= 0) return openFileAt({ integration: openFile.integration, file }, line + 1, lines[line].search(/\S/) + 1);
  }
  useStudio.getState().setNotice(`no flow named "${name}" in ${openFile.integration}`);
}
