import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { PlatformEventList } from '../../components/PlatformEventList.tsx';

/** Key/value writes and lease changes on the embedded platform, live. */
export function StoragePanel() {
  return (
    <section className="panel" aria-labelledby="panel-title">
      <PanelHeader title="Storage" />
      <PlatformEventList
        label="Storage and lease events"
        kinds={['kv', 'lease']}
        empty={<EmptyState title="No storage activity yet">Key/value writes and lease changes made by running flows appear here.</EmptyState>}
      />
    </section>
  );
}
