import { useEffect, type ComponentType } from 'react';
import { DebuggerPanel } from './features/debugger/DebuggerPanel.tsx';
import { FlowsPanel } from './features/flows/FlowsPanel.tsx';
import { LogsPanel } from './features/logs/LogsPanel.tsx';
import { QueuesTopicsPanel } from './features/queues-topics/QueuesTopicsPanel.tsx';
import { RequestsPanel } from './features/requests/RequestsPanel.tsx';
import { ResourcesPanel } from './features/resources/ResourcesPanel.tsx';
import { SecretsPanel } from './features/secrets/SecretsPanel.tsx';
import { StoragePanel } from './features/storage/StoragePanel.tsx';
import { TracesPanel } from './features/traces/TracesPanel.tsx';
import { TestsPanel } from './features/tests/TestsPanel.tsx';
import { CommandPalette } from './shell/CommandPalette.tsx';
import { LeftRail } from './shell/LeftRail.tsx';
import { SessionBanner } from './shell/SessionBanner.tsx';
import { HistorySettings } from './shell/HistorySettings.tsx';
import { StatusBar } from './shell/StatusBar.tsx';
import { panels, type PanelId } from './store/panels.ts';
import { useStudio } from './store/studio-store.ts';

const panelViews: Record<PanelId, ComponentType> = {
  flows: FlowsPanel,
  requests: RequestsPanel,
  traces: TracesPanel,
  queues: QueuesTopicsPanel,
  storage: StoragePanel,
  resources: ResourcesPanel,
  secrets: SecretsPanel,
  logs: LogsPanel,
  tests: TestsPanel,
  debugger: DebuggerPanel,
};

/** The shell every studio feature plugs into: rail, the chosen panel, status bar, palette. */
export function App() {
  const panel = useStudio((s) => s.panel);
  const notice = useStudio((s) => s.notice);
  const setNotice = useStudio((s) => s.setNotice);
  useGlobalKeys();
  const View = panelViews[panel];
  return (
    <div className="app">
      <LeftRail />
      <main id="panel" role="tabpanel" aria-labelledby={`tab-${panel}`} className="app-main">
        <SessionBanner />
        {notice ? (
          <div className="notice" role="alert">
            <span>{notice}</span>
            <button type="button" onClick={() => setNotice(undefined)} aria-label="Dismiss">
              ×
            </button>
          </div>
        ) : null}
        <View />
      </main>
      <StatusBar />
      <CommandPalette />
      <HistorySettings />
    </div>
  );
}

function useGlobalKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const { paletteOpen, setPaletteOpen, showPanel } = useStudio.getState();
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteOpen(!paletteOpen);
      } else if (e.altKey && !e.ctrlKey && !e.metaKey && /^Digit[1-9]$/.test(e.code)) {
        // e.code, not e.key: Option+digit types other characters on macOS.
        e.preventDefault();
        showPanel(panels[Number(e.code.slice(5)) - 1].id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
