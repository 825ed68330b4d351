import { memo, useMemo } from 'react';
import type { TraceFeedEvent } from '../../../shared/feed-events.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { objectKey } from '../../components/object-key.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { FEED_LIMITS } from '../../store/feed-slice.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime, noneOfMatch, runDuration } from '../../shell/format.ts';
import { NO_RUN_FILTERS, type RunFilters } from '../../store/traces-slice.ts';
import { RunFiltersBar } from './RunFiltersBar.tsx';

/**
 * Every run and step of running flows as the live feed delivers them, newest at the bottom,
 * filtered like the Runs list (flow, outcome, text; the live feed has no HTTP status). A click
 * on a row opens its run.
 */
export function LiveTraces() {
  const all = useStudio((s) => s.traces);
  const filters = useStudio((s) => s.runFilters);
  const clear = useStudio((s) => s.clearTraces);
  const showRun = useStudio((s) => s.showRun);
  const setRunFilters = useStudio((s) => s.setRunFilters);
  const flows = useMemo(() => [...new Set(all.map((t) => t.trace.flow))].sort(), [all]);
  const traces = useMemo(() => all.filter((t) => matches(t, filters)), [all, filters]);
  return (
    <>
      <RunFiltersBar flows={flows} withStatus={false} />
      <div className="live-bar">
        <span className="muted" aria-label="trace count">
          {traces.length} shown (last {FEED_LIMITS.traces})
        </span>
        <button type="button" onClick={clear}>
          Clear
        </button>
      </div>
      <VirtualList
        label="Traces"
        items={traces}
        rowHeight={26}
        followTail
        rowKey={objectKey}
        renderRow={(t) => <TraceRow event={t} onOpen={showRun} />}
        empty={
          all.length > 0 ? (
            // The feed holds traces, the filters hide them: "No traces yet" sent people to send requests.
            <EmptyState title="No traces match">
              {noneOfMatch(all.length, 'trace', ' in the feed')} these filters.{' '}
              <button type="button" className="link" onClick={() => setRunFilters(NO_RUN_FILTERS)}>
                Clear filters
              </button>
            </EmptyState>
          ) : (
            <EmptyState title="No traces yet">Run an integration and send it a request; each run and step appears here as it happens.</EmptyState>
          )
        }
      />
    </>
  );
}

const TraceRow = memo(function TraceRow({ event, onOpen }: { event: TraceFeedEvent; onOpen(runId: string): void }) {
  const t = event.trace;
  return (
    <div
      className={`trace-row trace-${t.kind} outcome-${t.outcome}`}
      data-flow={t.flow}
      data-kind={`live-${t.kind}`}
      role="button"
      tabIndex={0}
      onClick={() => onOpen(t.runId)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onOpen(t.runId)}
      title="Open the run"
    >
      <span className="cell time">{clockTime(t.startedAt)}</span>
      <span className="cell flow">{t.flow}</span>
      <span className="cell kind">{t.kind === 'run' ? 'run' : (t.name ?? t.block ?? '')}</span>
      <span className="cell outcome">{t.outcome}</span>
      <span className="cell duration">{runDuration(t.durationMs)}</span>
      <span className="cell id muted">{t.correlationId}</span>
      {t.error ? <span className="cell error">{t.error}</span> : null}
    </div>
  );
});

function matches(event: TraceFeedEvent, f: RunFilters): boolean {
  const t = event.trace;
  if (f.flow && t.flow !== f.flow) return false;
  if (f.outcome && t.outcome !== f.outcome) return false;
  if (!f.text) return true;
  const needle = f.text.toLowerCase();
  return [t.flow, t.name, t.block, t.error, t.correlationId, t.runId].some((v) => v !== undefined && v.toLowerCase().includes(needle));
}
