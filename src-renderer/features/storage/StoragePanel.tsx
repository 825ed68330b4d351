import { HistoryScrubber } from '../../components/HistoryScrubber.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { AgentMemoryView } from './AgentMemoryView.tsx';
import { KvBrowser } from './KvBrowser.tsx';
import { LeasesView } from './LeasesView.tsx';
import '../../components/platform-views.css';

/**
 * What flows left behind on the embedded platform: key/value entries (versioned edits), leases
 * and leaders, agent memory. KV and leases can be scrubbed back through the last minutes.
 */
export function StoragePanel() {
  const tab = useStudio((s) => s.storageTab);
  const setTab = useStudio((s) => s.setStorageTab);
  const tabs = [
    ['kv', 'Key/value'],
    ['leases', 'Leases'],
    ['agents', 'Agent memory'],
  ] as const;
  return (
    <section className="panel platform-panel" aria-labelledby="panel-title">
      <PanelHeader title="Storage">
        <div className="pv-segmented" role="tablist" aria-label="Storage view">
          {tabs.map(([id, label]) => (
            <button key={id} type="button" role="tab" aria-selected={tab === id} onClick={() => setTab(id)}>
              {label}
            </button>
          ))}
        </div>
      </PanelHeader>
      {tab !== 'agents' ? <HistoryScrubber key={tab} view={tab} /> : null}
      {tab === 'kv' ? <KvBrowser /> : tab === 'leases' ? <LeasesView /> : <AgentMemoryView />}
    </section>
  );
}
