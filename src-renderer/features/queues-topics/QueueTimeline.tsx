import type { QueueTimelineEvent } from '../../../shared/platform-views.ts';
import { RunLinkButton } from '../../components/RunLinkButton.tsx';
import { VirtualList } from '../../components/VirtualList.tsx';
import { clockTime } from '../../shell/format.ts';
import { useStudio } from '../../store/studio-store.ts';
import { queueEventLabel, shortId } from './timeline-labels.ts';

/** A subject's events in order, each with the run it belongs to; a row opens its message. */
export function QueueTimeline({ events, onOpen }: { events: QueueTimelineEvent[]; onOpen: (messageId: string) => void }) {
  const setPlatformAt = useStudio((s) => s.setPlatformAt);
  const setAt = (t: number | undefined): void => setPlatformAt('queues', t);
  return (
    <VirtualList
      label="Queue timeline"
      items={events}
      rowHeight={28}
      followTail
      rowKey={(e) => e.seq}
      empty={<p className="muted pv-empty">Nothing happened on this subject in the time shown.</p>}
      renderRow={(e) => (
        <div
          className={`pv-event action-${e.action}`}
          data-action={e.action}
          data-message={e.messageId}
          data-correlation={e.correlationId}
          onClick={() => e.messageId && onOpen(e.messageId)}
        >
          <span className="cell time">{clockTime(e.at)}</span>
          <span className="cell pv-action">{e.action}</span>
          <span className="cell pv-group">{e.group ?? ''}</span>
          <span className="cell pv-id">
            {e.messageId ? (
              <button type="button" className="link" aria-label={`Open message ${e.messageId}`} onClick={(ev) => {
                  ev.stopPropagation();
                  onOpen(e.messageId!);
                }}
              >
                {shortId(e.messageId)}
              </button>
            ) : null}
          </span>
          <span className="cell fields">
            {queueEventLabel(e)}
            {e.fromStudio ? <span className="pv-tag">studio</span> : null}
          </span>
          {e.run ? <RunLinkButton run={e.run} /> : null}
          <button
            type="button"
            className="pv-icon"
            aria-label={`Show the platform as it was at ${clockTime(e.at)}`}
            title="Show this view as it was at this moment"
            onClick={(ev) => {
              ev.stopPropagation();
              setAt(e.at);
            }}
          >
            ↺
          </button>
        </div>
      )}
    />
  );
}
