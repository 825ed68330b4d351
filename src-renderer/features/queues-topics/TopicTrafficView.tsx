import { useEffect, useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { RunLinkButton } from '../../components/RunLinkButton.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { clockTime } from '../../shell/format.ts';
import { useStudio } from '../../store/studio-store.ts';
import { SubscriptionTable } from './SubscriptionTable.tsx';
import { topicEventLabel } from './timeline-labels.ts';
import { TopicPublishForm } from './TopicPublishForm.tsx';

/** Topics: streams with their subscriptions, live messages, test publishes, subscription delete. */
export function TopicTrafficView() {
  const at = useStudio((s) => s.platformAt.topics);
  const setPlatformAt = useStudio((s) => s.setPlatformAt);
  const setAt = (t: number | undefined): void => setPlatformAt('topics', t);
  const { plane, subject } = useStudio((s) => s.topicSelection);
  const select = useStudio((s) => s.selectTopic);
  const query = { plane, subject, at };
  const view = useLiveQuery(() => platformQueries.topicView(query), JSON.stringify(query), { intervalMs: 500, live: at === undefined });
  const [publishing, setPublishing] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const streams = view.data?.streams ?? [];

  useEffect(() => {
    if (subject === undefined && streams.length > 0) select(streams[0].plane, streams[0].subject);
  }, [subject, streams.length > 0]);

  const stream = streams.find((s) => s.plane === plane && s.subject === subject);
  return (
    <div className="pv-split">
      <div className="pv-side">
        {streams.length === 0 ? null : (
        <table className="pv-table" aria-label="Topic streams">
          <thead>
            <tr>
              <th>Topic</th>
              <th>Published</th>
              <th>Delivered</th>
              <th title="Subscriptions">Subs</th>
            </tr>
          </thead>
          <tbody>
            {streams.map((s) => {
              const selected = s.plane === plane && s.subject === subject;
              return (
                <tr key={`${s.plane}\0${s.subject}`} aria-selected={selected} className={selected ? 'selected' : undefined}>
                  <td>
                    <button type="button" className="link" onClick={() => select(s.plane, s.subject)} title={s.plane}>
                      {s.subject} <span className="muted">{planeLabel(s.plane)}</span>
                    </button>
                  </td>
                  <td>{s.published}</td>
                  <td>{s.delivered}</td>
                  <td>{s.subscriptions.length}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        )}
        <button type="button" className="pv-new" onClick={() => setPublishing(true)}>
          Publish to a topic…
        </button>
      </div>
      <div className="pv-detail">
        {view.error ? <p className="error">{view.error}</p> : null}
        {subject === undefined && !publishing ? (
          <EmptyState title="No topic traffic yet">Topics that flows publish to or subscribe to appear here with their subscriptions.</EmptyState>
        ) : (
          <>
            {subject !== undefined ? (
              <h3 className="pv-title">
                {subject} <span className="muted">{planeLabel(plane ?? '')}</span>
              </h3>
            ) : null}
            <div className="pv-actions">
              <button type="button" aria-pressed={publishing} onClick={() => setPublishing(!publishing)}>
                Publish test message
              </button>
              {notice ? <span role="status" className="muted">{notice}</span> : null}
            </div>
            {publishing ? <TopicPublishForm key={`${plane}\0${subject}`} subject={subject ?? ''} plane={plane ?? 'platform'} onPublished={view.refresh} /> : null}
            {stream ? (
              <SubscriptionTable
                subscriptions={stream.subscriptions}
                onDelete={(id) =>
                  void platformQueries.deleteTopicSubscription(id).then((gone) => {
                    setNotice(gone ? 'Subscription deleted.' : 'It was already gone.');
                    view.refresh();
                  })
                }
              />
            ) : null}
            {subject !== undefined ? (
              <VirtualList
                label="Topic timeline"
                items={view.data?.timeline ?? []}
                rowHeight={28}
                followTail
                rowKey={(e) => e.seq}
                empty={<p className="muted pv-empty">Nothing happened on this topic in the time shown.</p>}
                renderRow={(e) => (
                  <div className={`pv-event action-${e.action}`} data-action={e.action} data-correlation={e.correlationId} data-subscription={e.subscriptionId}>
                    <span className="cell time">{clockTime(e.at)}</span>
                    <span className="cell pv-action">{e.action}</span>
                    <span className="cell pv-id">{e.messageId ?? ''}</span>
                    <span className="cell fields">
                      {topicEventLabel(e)}
                      {e.fromStudio ? <span className="pv-tag">studio</span> : null}
                    </span>
                    {e.run ? <RunLinkButton run={e.run} /> : null}
                    <button type="button" className="pv-icon" aria-label={`Show the platform as it was at ${clockTime(e.at)}`} onClick={() => setAt(e.at)}>
                      ↺
                    </button>
                  </div>
                )}
              />
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}

export function planeLabel(plane: string): string {
  return plane === 'platform' ? 'system' : plane.startsWith('deployment/') ? plane.slice('deployment/'.length) || 'deployment' : plane;
}
