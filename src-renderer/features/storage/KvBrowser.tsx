import { useEffect, useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { clockTime } from '../../shell/format.ts';
import { useStudio } from '../../store/studio-store.ts';
import { KeyTree } from './KeyTree.tsx';
import { KvEntryPanel, Writer } from './KvEntryPanel.tsx';
import { VisibleKey } from './VisibleKey.tsx';

/** KV: namespaces → keys (slashes as a tree) → the entry; recent writes with the runs that made them. */
export function KvBrowser() {
  const at = useStudio((s) => s.platformAt.kv);
  const setPlatformAt = useStudio((s) => s.setPlatformAt);
  const setAt = (t: number | undefined): void => setPlatformAt('kv', t);
  const { namespace, key } = useStudio((s) => s.kvSelection);
  const select = useStudio((s) => s.selectKv);
  const [filter, setFilter] = useState('');
  const query = { namespace, at, filter: filter.trim() || undefined };
  const view = useLiveQuery(() => platformQueries.kvView(query), JSON.stringify(query), { intervalMs: 1_000, live: at === undefined });
  const [newKey, setNewKey] = useState('');
  const [created, setCreated] = useState<{ ok: boolean; text: string } | undefined>();
  const namespaces = view.data?.namespaces ?? [];

  useEffect(() => {
    if (namespace === undefined && namespaces.length > 0) select(namespaces[0].namespace);
  }, [namespace, namespaces.length > 0]);

  if (view.data && namespaces.length === 0 && namespace === undefined) {
    return <EmptyState title="No key/value entries yet">Entries written by running flows (kv-put) appear here by namespace.</EmptyState>;
  }
  const info = namespaces.find((n) => n.namespace === namespace);
  return (
    <div className="pv-kv">
      <nav className="pv-namespaces" aria-label="Namespaces">
        {namespaces.map((n) => (
          <button key={n.namespace} type="button" aria-current={n.namespace === namespace ? 'true' : undefined} onClick={() => select(n.namespace)}>
            {n.namespace} <span className="muted">{n.keys}</span>
            {n.secret ? <span className="pv-tag">keys only</span> : null}
            {n.volatile ? <span className="pv-tag">memory</span> : null}
          </button>
        ))}
      </nav>
      <div className="pv-kv-keys">
        {info?.secret ? <p className="muted pv-note">Secret namespace: keys are listed, values never leave the platform.</p> : null}
        {!view.data?.live && view.data ? <p className="muted pv-note">Keys as of {clockTime(view.data.at)}; values are shown as they are now.</p> : null}
        {view.data?.keysCut && info ? (
          <p className="muted pv-note" role="status">
            {filter.trim() ? `The first ${view.data.keys.length.toLocaleString()} matching keys are listed` : `${view.data.keys.length.toLocaleString()} of ${info.keys.toLocaleString()} keys are listed`}; type more of a key
            to find it.
          </p>
        ) : null}
        <KeyTree keys={view.data?.keys ?? []} selected={key} onSelect={(k) => namespace !== undefined && select(namespace, k)} filter={filter} onFilter={setFilter} />
        {namespace !== undefined && !info?.secret ? (
          <form
            className="pv-new-key"
            onSubmit={(e) => {
              e.preventDefault();
              if (!newKey) return;
              setCreated(undefined);
              // Version 0 creates only: an existing key is shown as it is, never overwritten with null.
              void platformQueries.writeKvEntry({ namespace, key: newKey, text: 'null', format: 'json', expectedVersion: 0 }).then(
                (result) => {
                  select(namespace, newKey);
                  if (!result.ok) setCreated({ ok: true, text: `${newKey} already exists; it is shown, unchanged.` });
                  setNewKey('');
                  view.refresh();
                },
                (err: unknown) => setCreated({ ok: false, text: `Not created: ${err instanceof Error ? err.message : String(err)}` }),
              );
            }}
          >
            <input aria-label="New key" placeholder="new/key" value={newKey} onChange={(e) => setNewKey(e.currentTarget.value)} />
            <button type="submit">Create</button>
            {created ? (
              <p role={created.ok ? 'status' : 'alert'} className={created.ok ? 'muted pv-note' : 'error pv-note'}>
                {created.text}
              </p>
            ) : null}
          </form>
        ) : null}
      </div>
      <div className="pv-kv-entry">
        {namespace !== undefined && key !== undefined ? <KvEntryPanel key={`${namespace}\0${key}`} namespace={namespace} entryKey={key} onChanged={view.refresh} /> : <p className="muted">Pick a key.</p>}
        <h4>Writes in {namespace}</h4>
        <VirtualList
          label="KV writes"
          items={view.data?.writes ?? []}
          rowHeight={28}
          followTail
          rowKey={(w) => w.seq}
          empty={<p className="muted pv-empty">No write in the time shown.</p>}
          renderRow={(w) => (
            <div className={`pv-event action-${w.action}`} data-action={w.action}>
              <span className="cell time">{clockTime(w.at)}</span>
              <span className="cell pv-action">{w.action}</span>
              <button type="button" className="link cell fields" onClick={() => namespace !== undefined && select(namespace, w.key)}>
                <VisibleKey text={w.key} /> {w.version !== undefined ? `v${w.version}` : ''}
              </button>
              <Writer write={w} />
              <button type="button" className="pv-icon" aria-label={`Show the platform as it was at ${clockTime(w.at)}`} onClick={() => setAt(w.at)}>
                ↺
              </button>
            </div>
          )}
        />
      </div>
    </div>
  );
}
