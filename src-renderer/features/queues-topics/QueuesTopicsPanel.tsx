import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { PlatformEventList } from '../../components/PlatformEventList.tsx';

/** Queue and topic traffic on the embedded platform, live. */
export function QueuesTopicsPanel() {
  return (
    <section className="panel" aria-labelledby="panel-title">
      <PanelHeader title="Queues & Topics" />
      <PlatformEventList
        label="Queue and topic events"
        kinds={['queue', 'topic']}
        empty={<EmptyState title="No queue or topic traffic yet">Messages published, delivered and acknowledged by running flows appear here.</EmptyState>}
      />
    </section>
  );
}
