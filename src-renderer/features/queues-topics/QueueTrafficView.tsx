import { useEffect, useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { useStudio } from '../../store/studio-store.ts';
import { MessageDetail } from './MessageDetail.tsx';
import { PeekList } from './PeekList.tsx';
import { QueueCounters } from './QueueCounters.tsx';
import { groupLabel, QueueGroupList } from './QueueGroupList.tsx';
import { QueuePublishForm } from './QueuePublishForm.tsx';
import { QueueTimeline } from './QueueTimeline.tsx';

/** Queues: counters per subject and consumer group, the chosen one's timeline, test publishes, peek and purge. */
export function QueueTrafficView() {
  const at = useStudio((s) => s.platformAt.queues);
  const { subject, group } = useStudio((s) => s.queueSelection);
  const select = useStudio((s) => s.selectQueue);
  const query = { subject, group, at };
  const view = useLiveQuery(() => platformQueries.queueView(query), JSON.stringify(query), { intervalMs: 500, live: at === undefined });
  const [tool, setTool] = useState<'publish' | 'peek' | undefined>();
  const [openMessage, setOpenMessage] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const groups = view.data?.groups ?? [];

  useEffect(() => {
    if (subject === undefined && groups.length > 0) select(groups[0].subject, groups[0].group);
  }, [subject, groups.length > 0]);

  const rows = groups.filter((g) => g.subject === subject && (group === undefined || g.group === group));
  const subjectGroups = groups.filter((g) => g.subject === subject).map((g) => g.group);
  const title = subject === undefined ? '' : group === undefined ? `${subject} · every group` : groupLabel(subject, group);

  return (
    <div className="pv-split">
      <div className="pv-side">
        <QueueGroupList groups={groups} subject={subject} group={group} onSelect={(s, g) => select(s, g)} />
        <button type="button" className="pv-new" onClick={() => setTool('publish')}>
          Publish to a new subject…
        </button>
      </div>
      <div className="pv-detail">
        {view.error ? <p className="error">{view.error}</p> : null}
        {subject === undefined && tool !== 'publish' ? (
          <EmptyState title="No queue traffic yet">Messages published, delivered and acknowledged by running flows appear here, per subject and consumer group.</EmptyState>
        ) : (
          <>
            {subject !== undefined ? (
              <>
                <div className="pv-title-row">
                  <h3 className="pv-title">{title}</h3>
                  {group !== undefined && subjectGroups.length > 1 ? (
                    <button type="button" className="link" onClick={() => select(subject, undefined)}>
                      every group
                    </button>
                  ) : null}
                </div>
                <QueueCounters rows={rows} label={`Counters of ${title}`} />
              </>
            ) : null}
            <div className="pv-actions">
              <button type="button" aria-pressed={tool === 'publish'} onClick={() => setTool(tool === 'publish' ? undefined : 'publish')}>
                Publish test message
              </button>
              {subject !== undefined ? (
                <>
                  <button type="button" aria-pressed={tool === 'peek'} disabled={group === undefined} title={group === undefined ? 'Pick a consumer group' : undefined} onClick={() => setTool(tool === 'peek' ? undefined : 'peek')}>
                    Peek stored messages
                  </button>
                  <ConfirmButton
                    label="Purge…"
                    question={`Delete every stored message of ${title}?`}
                    confirmLabel="Purge"
                    onConfirm={() =>
                      void platformQueries.purgeQueue(subject, group).then(
                        (r) => {
                          setNotice(`Purged ${r.purged} message${r.purged === 1 ? '' : 's'}.`);
                          view.refresh();
                        },
                        (err: Error) => setNotice(err.message),
                      )
                    }
                  />
                </>
              ) : null}
              {notice ? <span role="status" className="muted">{notice}</span> : null}
            </div>
            {tool === 'publish' ? <QueuePublishForm key={subject ?? ''} subject={subject ?? ''} groups={subjectGroups} onPublished={view.refresh} /> : null}
            {tool === 'peek' && subject !== undefined && group !== undefined ? <PeekList subject={subject} group={group} /> : null}
            {subject !== undefined ? <QueueTimeline events={view.data?.timeline ?? []} onOpen={setOpenMessage} /> : null}
            {openMessage && subject !== undefined ? <MessageDetail subject={subject} messageId={openMessage} onClose={() => setOpenMessage(undefined)} /> : null}
          </>
        )}
      </div>
    </div>
  );
}
