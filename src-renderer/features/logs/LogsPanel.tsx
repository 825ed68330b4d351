import { memo } from 'react';
import type { LogFeedEvent } from '../../../shared/feed-events.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { objectKey } from '../../components/object-key.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { useStudio } from '../../store/studio-store.ts';

/** Structured log records of running integrations, newest at the bottom. */
export function LogsPanel() {
  const logs = useStudio((s) => s.logs);
  const clear = useStudio((s) => s.clearLogs);
  return (
    <section className="panel" aria-labelledby="panel-title">
      <PanelHeader title="Logs">
        <button type="button" onClick={clear}>
          Clear
        </button>
      </PanelHeader>
      <VirtualList
        label="Logs"
        items={logs}
        rowHeight={24}
        followTail
        rowKey={objectKey}
        renderRow={(l) => <LogRow event={l} />}
        empty={<EmptyState title="No log records yet">Records written by running flows (the log block, connectors starting and stopping) appear here.</EmptyState>}
      />
    </section>
  );
}

const LogRow = memo(function LogRow({ event }: { event: LogFeedEvent }) {
  const { time, level, msg, fields } = event.log;
  // The integration has its own column; the rest of the record follows the message.
  const { integration: _integration, ...others } = fields;
  const rest = Object.keys(others).length > 0 ? JSON.stringify(others) : '';
  return (
    <div className={`log-row level-${level}`}>
      <span className="cell time">{time.slice(11, 23)}</span>
      <span className="cell level">{level}</span>
      <span className="cell origin muted">{event.integration ?? ''}</span>
      <span className="cell msg">{msg}</span>
      <span className="cell fields muted">{rest}</span>
    </div>
  );
});
