import { platformQueries } from '../../api/platform-queries.ts';
import { RunLinkButton } from '../../components/RunLinkButton.tsx';
import { useLiveQuery, useNow } from '../../components/use-live-query.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { clockTime } from '../../shell/format.ts';
import { useStudio } from '../../store/studio-store.ts';

/** Who holds which lease or leadership now, with expiry countdowns and fencing tokens, and the history of claims. */
export function LeasesView() {
  const at = useStudio((s) => s.platformAt.leases);
  const setPlatformAt = useStudio((s) => s.setPlatformAt);
  const setAt = (t: number | undefined): void => setPlatformAt('leases', t);
  const view = useLiveQuery(() => platformQueries.leaseView({ at }), String(at), { intervalMs: 500, live: at === undefined });
  const ticking = useNow(200);
  const now = at ?? ticking;
  const holders = view.data?.holders ?? [];
  return (
    <div className="pv-leases">
      {view.error ? <p className="error">{view.error}</p> : null}
      <table className="pv-table" aria-label="Lease holders">
        <thead>
          <tr>
            <th>Name</th>
            <th>Kind</th>
            <th>Holder</th>
            <th title="Grows with every grant; a resource can refuse writes carrying an older one">Fencing</th>
            <th>Held for</th>
            <th>Expires in</th>
          </tr>
        </thead>
        <tbody>
          {holders.length === 0 ? (
            <tr>
              <td colSpan={6} className="muted">
                Nobody holds a lease {at === undefined ? 'now' : 'at the moment shown'}.
              </td>
            </tr>
          ) : null}
          {holders.map((h) => {
            const left = Math.max(0, h.expiresAt - now);
            return (
              <tr key={`${h.kind}\0${h.name}`} data-lease={h.name}>
                <td>
                  <code>{h.name}</code>
                </td>
                <td>{h.kind}</td>
                <td>{h.holder}</td>
                <td data-field="fencing">{h.fencingToken}</td>
                <td>{((now - h.grantedAt) / 1000).toFixed(1)} s</td>
                <td className={left < 2_000 ? 'warning' : undefined}>
                  <span data-field="countdown">{(left / 1000).toFixed(1)} s</span> <progress max={h.ttlMs} value={left} aria-hidden="true" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h4>History</h4>
      <VirtualList
        label="Lease history"
        items={view.data?.history ?? []}
        rowHeight={28}
        followTail
        rowKey={(e) => e.seq}
        empty={<p className="muted pv-empty">No lease was granted, renewed or released in the time shown.</p>}
        renderRow={(e) => (
          <div className={`pv-event action-${e.action}`} data-action={e.action} data-lease={e.name}>
            <span className="cell time">{clockTime(e.at)}</span>
            <span className="cell pv-action">{e.action}</span>
            <span className="cell pv-group">
              <code>{e.name}</code>
            </span>
            <span className="cell fields">
              {e.holder}
              {e.fencingToken !== undefined ? ` · fencing ${e.fencingToken}` : ''}
              {e.previousHolder !== undefined ? ` · from ${e.previousHolder}` : ''}
              {e.expiresAt !== undefined && e.action !== 'expire' ? ` · until ${clockTime(e.expiresAt)}` : ''}
            </span>
            {e.run ? <RunLinkButton run={e.run} /> : null}
            <button type="button" className="pv-icon" aria-label={`Show the platform as it was at ${clockTime(e.at)}`} onClick={() => setAt(e.at)}>
              ↺
            </button>
          </div>
        )}
      />
    </div>
  );
}
