import { useEffect, useState, type KeyboardEvent } from 'react';
import { studio } from '../../api/studio-client.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
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
import './flows.css';

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
        <EmptyState title="No integrations in the workspace">
          Create one with New integration, or add a folder with a flow definition (a .yaml file) to {workspace?.root ?? 'the workspace'}; it shows up here as soon as it is saved.
        </EmptyState>
      ) : (
        <div className="flows-layout">
          <ul className="integration-list" aria-label="Integrations">
            {integrations.map((i) => (
              <IntegrationCard key={i.id} integration={i} />
            ))}
          </ul>
          <div className="flows-center">
            <EditorArea />
            <BottomPane />
          </div>
          <SidePane />
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

function SidePane() {
  const pane = useStudio((s) => s.sidePane);
  const setPane = useStudio((s) => s.setSidePane);
  return (
    <div className="side-pane">
      <div className="pane-tabs" role="tablist" aria-label="Beside the editor">
        <button type="button" role="tab" aria-selected={pane === 'graph'} onClick={() => setPane('graph')}>
          Graph
        </button>
        <button type="button" role="tab" aria-selected={pane === 'palette'} onClick={() => setPane('palette')}>
          Blocks
        </button>
      </div>
      <div className="pane-body" role="tabpanel">
        {pane === 'graph' ? <FlowGraph /> : <BlockPalette />}
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
    const next = fileToOpen(openFile, integrations);
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

