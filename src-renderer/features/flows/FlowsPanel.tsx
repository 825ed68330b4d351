import { useEffect, useState, type KeyboardEvent } from 'react';
import { studio } from '../../api/studio-client.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { WorkspaceIsIntegration } from './WorkspaceIsIntegration.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { EditorArea } from './EditorArea.tsx';
import { editorCommands } from './editor-commands.ts';
import { createIntegration } from './files/file-actions.ts';
import { IntegrationCard } from './files/IntegrationCard.tsx';
import { FlowGraph } from './graph/FlowGraph.tsx';
import { BlockPalette } from './palette/BlockPalette.tsx';
import { CelPlayground } from './playground/CelPlayground.tsx';
import { ProblemsView, useProblemCount } from './problems/ProblemsView.tsx';
import { followRunStats } from './run-stats-sync.ts';
import { fileToOpen } from './file-to-open.ts';
import { ColumnSplitter } from './layout/ColumnSplitter.tsx';
import { gridColumns } from './layout/column-layout.ts';
import { FoldButton, FoldedColumn } from './layout/FoldedColumn.tsx';
import { useColumnLayout } from './layout/use-column-layout.ts';
import { metricsCalls } from '../../api/metrics-calls.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { forgetRememberedOpenFile, rememberedOpenFile } from '../../shell/tab-session.ts';
import './flows.css';

const SPARKLINE_MS = 3_000;

// Run counts follow the live feed from the start, whichever panel is showing.
followRunStats();

/**
 * Designing flows: the integrations and their files on the left, the schema-aware editor in the
 * middle with Problems and the CEL playground below, and the flow graph or the block palette on
 * the right.
 */
export function FlowsPanel() {
  const integrations = useStudio((s) => s.integrations);
  const loaded = useStudio((s) => s.integrationsLoaded);
  const workspace = useStudio((s) => s.workspace);
  const [adding, setAdding] = useState(false);
  const { layout, setWidth, toggle } = useColumnLayout();
  // One call every few seconds for every card's sparkline.
  const sparklines = useLiveQuery(metricsCalls.sparklines, 'sparklines', { intervalMs: SPARKLINE_MS, live: true });
  useDesignReference();
  useDefaultFile();
  useSaveShortcut();

  const onNewIntegration = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'Escape') setAdding(false);
    if (e.key === 'Enter' && e.currentTarget.value.trim()) {
      const id = e.currentTarget.value;
      setAdding(false);
      void createIntegration(id);
    }
  };

  return (
    <section className="panel flows-panel" aria-labelledby="panel-title">
      <PanelHeader title="Flows">
        {workspace ? <span className="muted workspace-root">{workspace.root}</span> : null}
        {adding ? (
          <input className="file-input" aria-label="New integration name" placeholder="integration-name" autoFocus onKeyDown={onNewIntegration} onBlur={() => setAdding(false)} />
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            New integration
          </button>
        )}
      </PanelHeader>
      {loaded && integrations.length === 0 ? (
        workspace && workspace.definitionsAtRoot.length > 0 ? (
          <WorkspaceIsIntegration workspace={workspace} />
        ) : (
          <EmptyState title="No integrations in the workspace">
            Create one with New integration, or add a folder with a flow definition (a .yaml file) to {workspace?.root ?? 'the workspace'}; it shows up here as soon as it is saved.
          </EmptyState>
        )
      ) : (
        <div className="flows-layout" style={{ gridTemplateColumns: gridColumns(layout) }} data-left={layout.left.collapsed ? 'folded' : 'open'} data-right={layout.right.collapsed ? 'folded' : 'open'}>
          {layout.left.collapsed ? (
            <FoldedColumn name="integrations" onOpen={() => toggle('left')} />
          ) : (
            <div className="side-column">
              <div className="side-column-head">
                <span className="muted">Integrations</span>
                <FoldButton name="integrations" side="left" onFold={() => toggle('left')} />
              </div>
              <ul className="integration-list" aria-label="Integrations">
                {integrations.map((i) => (
                  <IntegrationCard key={i.id} integration={i} activity={sparklines.data?.byIntegration[i.id]} />
                ))}
              </ul>
            </div>
          )}
          <ColumnSplitter side="left" label="Resize integrations" width={layout.left.width} collapsed={layout.left.collapsed} onWidth={(w) => setWidth('left', w)} onToggle={() => toggle('left')} />
          <div className="flows-center">
            <EditorArea />
            <BottomPane />
          </div>
          <ColumnSplitter side="right" label="Resize graph and blocks" width={layout.right.width} collapsed={layout.right.collapsed} onWidth={(w) => setWidth('right', w)} onToggle={() => toggle('right')} />
          {layout.right.collapsed ? <FoldedColumn name="graph and blocks" onOpen={() => toggle('right')} /> : <SidePane onFold={() => toggle('right')} />}
        </div>
      )}
    </section>
  );
}

function BottomPane() {
  const pane = useStudio((s) => s.bottomPane);
  const setPane = useStudio((s) => s.setBottomPane);
  const count = useProblemCount();
  return (
    <div className="bottom-pane">
      <div className="pane-tabs" role="tablist" aria-label="Below the editor">
        <button type="button" role="tab" aria-selected={pane === 'problems'} onClick={() => setPane('problems')}>
          Problems{count > 0 ? ` (${count})` : ''}
        </button>
        <button type="button" role="tab" aria-selected={pane === 'playground'} onClick={() => setPane('playground')}>
          CEL playground
        </button>
      </div>
      <div className="pane-body" role="tabpanel">
        {pane === 'problems' ? <ProblemsView /> : <CelPlayground />}
      </div>
    </div>
  );
}

function SidePane({ onFold }: { onFold(): void }) {
  const pane = useStudio((s) => s.sidePane);
  const setPane = useStudio((s) => s.setSidePane);
  return (
    <div className="side-pane">
      <div className="pane-tabs" role="tablist" aria-label="Beside the editor">
        <FoldButton name="graph and blocks" side="right" onFold={onFold} />
        <button type="button" role="tab" aria-selected={pane === 'graph'} onClick={() => setPane('graph')}>
          Graph
        </button>
        <button type="button" role="tab" aria-selected={pane === 'palette'} onClick={() => setPane('palette')}>
          Blocks
        </button>
      </div>
      <div className="pane-body" role="tabpanel">
        {pane === 'graph' ? <FlowGraph /> : null}
        {/* Kept while the graph shows: a block dragged from it onto the graph is still its drag. */}
        <div className="palette-holder" hidden={pane !== 'palette'}>
          <BlockPalette />
        </div>
      </div>
    </div>
  );
}

/** The component reference (schema, specs, CEL functions) arrives once per studio session. */
function useDesignReference(): void {
  const has = useStudio((s) => s.designReference !== undefined);
  useEffect(() => {
    if (has) return;
    studio.designReference().then(useStudio.getState().setDesignReference, (err: unknown) =>
      useStudio.getState().setNotice(`could not load the component reference: ${err instanceof Error ? err.message : String(err)}`),
    );
  }, [has]);
}

/** Keeps the editor on a file that exists: see fileToOpen. */
function useDefaultFile(): void {
  const openFile = useStudio((s) => s.openFile);
  const integrations = useStudio((s) => s.integrations);
  const setOpenFile = useStudio((s) => s.setOpenFile);
  useEffect(() => {
    // After a reload, the file this tab had open, once the integrations are known.
    const next = fileToOpen(openFile ?? rememberedOpenFile(), integrations);
    if (integrations.length > 0) forgetRememberedOpenFile();
    if (next !== openFile) setOpenFile(next);
  }, [openFile, integrations, setOpenFile]);
}

/** Ctrl/Cmd+S saves even when the focus is outside the editor (which handles it itself). */
function useSaveShortcut(): void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.defaultPrevented || !(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 's') return;
      e.preventDefault();
      void editorCommands()?.save();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

