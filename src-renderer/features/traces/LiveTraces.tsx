import { memo } from 'react';
import type { TraceFeedEvent } from '../../../shared/feed-events.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { objectKey } from '../../components/object-key.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { FEED_LIMITS } from '../../store/feed-slice.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime } from '../../shell/format.ts';

/** Every run and step of running flows as the live feed delivers them, newest at the bottom. */
export function LiveTraces() {
  const traces = useStudio((s) => s.traces);
  const clear = useStudio((s) => s.clearTraces);
  const showRun = useStudio((s) => s.showRun);
  return (
    <>
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
        empty={<EmptyState title="No traces yet">Run an integration and send it a request; each run and step appears here as it happens.</EmptyState>}
      />
    </>
  );
}

const TraceRow = memo(function TraceRow({ event, onOpen }: { event: TraceFeedEvent; onOpen(runId: string): void }) {
  const t = event.trace;
  return (
    <div className={`trace-row trace-${t.kind} outcome-${t.outcome}`} data-flow={t.flow} data-kind={`live-${t.kind}`} onDoubleClick={() => onOpen(t.runId)} title="Double-click to open the run">
      <span className="cell time">{clockTime(t.startedAt)}</span>
      <span className="cell flow">{t.flow}</span>
      <span className="cell kind">{t.kind === 'run' ? 'run' : (t.name ?? t.block ?? '')}</span>
      <span className="cell outcome">{t.outcome}</span>
      <span className="cell duration">{t.durationMs.toFixed(1)} ms</span>
      <span className="cell id muted">{t.correlationId}</span>
      {t.error ? <span className="cell error">{t.error}</span> : null}
    </div>
  );
});
