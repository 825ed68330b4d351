import { platformQueries } from '../../api/platform-queries.ts';
import { RunLinkButton } from '../../components/RunLinkButton.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { ValueView } from '../../components/ValueView.tsx';
import { clockTime } from '../../shell/format.ts';
import { queueEventLabel } from './timeline-labels.ts';

/** One message: headers, body, every event it went through, and the runs that produced and consumed it. */
export function MessageDetail({ subject, messageId, onClose }: { subject: string; messageId: string; onClose: () => void }) {
  const detail = useLiveQuery(() => platformQueries.queueMessage(subject, messageId), `${subject}\0${messageId}`, { intervalMs: 1_000, live: true });
  const d = detail.data;
  return (
    <section className="pv-drawer" aria-label={`Message ${messageId}`}>
      <header className="pv-drawer-head">
        <h3>Message {messageId}</h3>
        <button type="button" aria-label="Close the message" onClick={onClose}>
          ×
        </button>
      </header>
      {d === null ? <p className="muted">The history no longer holds this message.</p> : null}
      {d ? (
        <div className="pv-drawer-body">
          {d.correlationId ? (
            <p>
              Correlation id <code>{d.correlationId}</code>
            </p>
          ) : (
            <p className="muted">Published without a correlation id: its runs cannot be told.</p>
          )}
          <div className="pv-runs" role="group" aria-label="Runs of this message">
            {d.runs.length === 0 ? <span className="muted">No run linked yet.</span> : d.runs.map((r) => <RunLinkButton key={r.runId} run={r} />)}
          </div>
          <ol className="pv-steps">
            {d.events.map((e) => (
              <li key={e.seq}>
                <span className="muted">{clockTime(e.at)}</span> <strong>{e.action}</strong> {e.group ? `(${e.group})` : ''} {queueEventLabel(e)}
              </li>
            ))}
          </ol>
          {d.headers && Object.keys(d.headers).length > 0 ? <pre className="pv-headers">{Object.entries(d.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}</pre> : null}
          {d.body ? <ValueView value={d.body} label="Message body" /> : null}
        </div>
      ) : null}
    </section>
  );
}
