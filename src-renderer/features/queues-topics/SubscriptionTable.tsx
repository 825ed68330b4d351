import type { TopicSubscriptionInfo } from '../../../shared/platform-views.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { useNow } from '../../components/use-live-query.ts';
import { shortId } from './timeline-labels.ts';

/** A stream's subscriptions: where each is, how far behind, when it last received and when it expires. */
export function SubscriptionTable({ subscriptions, onDelete }: { subscriptions: TopicSubscriptionInfo[]; onDelete: (id: string) => void }) {
  const now = useNow(1_000);
  if (subscriptions.length === 0) return <p className="muted">No subscription: a publish now reaches nobody and is not stored.</p>;
  return (
    <table className="pv-table" aria-label="Subscriptions">
      <thead>
        <tr>
          <th>Subscription</th>
          <th>Cursor</th>
          <th title="Stored messages it has not acknowledged">Lag</th>
          <th>In flight</th>
          <th>Last receive</th>
          <th>Expires</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {subscriptions.map((s) => (
          <tr key={s.id} data-subscription={s.id}>
            <td title={s.id}>
              <code>{shortId(s.id)}</code>
              {s.receiving ? <span className="pv-tag">receiving</span> : null}
            </td>
            <td>{s.cursor}</td>
            <td className={s.lag > 0 ? 'warning' : undefined}>{s.lag}</td>
            <td>{s.inFlight}</td>
            <td>{Math.max(0, Math.round((now - s.lastActiveAt) / 1000))} s ago</td>
            <td>{s.receiving ? 'kept alive' : `in ${Math.max(0, Math.round((s.expiresAt - now) / 1000))} s`}</td>
            <td>
              <ConfirmButton label="Delete…" question={`Delete ${shortId(s.id)}? Its flow subscribes again on its next receive.`} confirmLabel="Delete" onConfirm={() => onDelete(s.id)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
