import { useCallback, useState } from 'react';
import type { StoredVersion } from '../../../shared/trace-types.ts';
import { traceQueries } from '../../api/trace-queries.ts';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { CompareView } from './CompareView.tsx';
import { ChartsView } from '../charts/ChartsView.tsx';
import { LiveTraces } from './LiveTraces.tsx';
import { RunDetailView } from './RunDetailView.tsx';
import { RunFiltersBar } from './RunFiltersBar.tsx';
import { RunList } from './RunList.tsx';
import './traces.css';

/**
 * Every run of the studio's flows: a filterable list (newest first, any number of runs), a run's
 * waterfall with the message before and after each step, and two runs compared step by step.
 * The Live view shows the raw step feed as it happens.
 */
export function TracesPanel() {
  const view = useStudio((s) => s.tracesView);
  const setView = useStudio((s) => s.setTracesView);
  const selected = useStudio((s) => s.selectedRun);
  const picks = useStudio((s) => s.comparePicks);
  const comparing = useStudio((s) => s.comparing);
  const setComparing = useStudio((s) => s.setComparing);
  const runsCleared = useStudio((s) => s.runsCleared);
  const [flows, setFlows] = useState<string[]>([]);
  const [versions, setVersions] = useState<StoredVersion[]>([]);
  const onOptions = useCallback((f: string[], v: StoredVersion[]) => {
    setFlows((prev) => (prev.join('\n') === f.join('\n') ? prev : f));
    setVersions((prev) => (JSON.stringify(prev) === JSON.stringify(v) ? prev : v));
  }, []);

  return (
    <section className="panel traces-panel" aria-labelledby="panel-title">
      <PanelHeader title="Traces">
        <div className="segmented" role="tablist" aria-label="Traces view">
          <button type="button" role="tab" aria-selected={view === 'runs'} onClick={() => setView('runs')}>
            Runs
          </button>
          <button type="button" role="tab" aria-selected={view === 'live'} onClick={() => setView('live')}>
            Live
          </button>
          <button type="button" role="tab" aria-selected={view === 'charts'} onClick={() => setView('charts')}>
            Charts
          </button>
        </div>
        {view === 'runs' ? (
          <>
            <button type="button" disabled={picks.length !== 2} onClick={() => setComparing(true)} title="Pick two runs with their checkboxes">
              Compare{picks.length ? ` (${picks.length}/2)` : ''}
            </button>
            <button type="button" onClick={() => void traceQueries.clear().then(runsCleared)}>
              Clear runs
            </button>
          </>
        ) : null}
      </PanelHeader>
      {view === 'live' ? (
        <LiveTraces />
      ) : view === 'charts' ? (
        <ChartsView />
      ) : (
        <>
          <RunFiltersBar flows={flows} versions={versions} />
          <div className="traces-split">
            <RunList onOptions={onOptions} />
            <div className="traces-detail">
              {comparing && picks.length === 2 ? (
                <CompareView a={picks[0]} b={picks[1]} />
              ) : selected ? (
                <RunDetailView runId={selected} />
              ) : (
                <div className="empty-state">
                  <h3>Pick a run</h3>
                  <p>Its steps open as a waterfall; pick two with their checkboxes to compare them.</p>
                </div>
              )}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
