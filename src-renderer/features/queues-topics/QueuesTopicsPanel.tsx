import { HistoryScrubber } from '../../components/HistoryScrubber.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { QueueTrafficView } from './QueueTrafficView.tsx';
import { TopicTrafficView } from './TopicTrafficView.tsx';
import '../../components/platform-views.css';

/**
 * Queue and topic traffic on the embedded platform: counters, timelines linked to runs, test
 * publishes, peek, purge and subscriptions, live or scrubbed back through the last minutes.
 */
export function QueuesTopicsPanel() {
  const tab = useStudio((s) => s.queuesTab);
  const setTab = useStudio((s) => s.setQueuesTab);
  return (
    <section className="panel platform-panel" aria-labelledby="panel-title">
      <PanelHeader title="Queues & Topics">
        <div className="pv-segmented" role="tablist" aria-label="Queues or topics">
          <button type="button" role="tab" aria-selected={tab === 'queues'} onClick={() => setTab('queues')}>
            Queues
          </button>
          <button type="button" role="tab" aria-selected={tab === 'topics'} onClick={() => setTab('topics')}>
            Topics
          </button>
        </div>
      </PanelHeader>
      <HistoryScrubber key={tab} view={tab} />
      {tab === 'queues' ? <QueueTrafficView /> : <TopicTrafficView />}
    </section>
  );
}
