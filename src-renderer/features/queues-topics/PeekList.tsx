import { useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { ValueView } from '../../components/ValueView.tsx';
import { clockTime } from '../../shell/format.ts';
import { shortId } from './timeline-labels.ts';

/** The messages a group holds, in the order it will receive them; a row shows the body. */
export function PeekList({ subject, group }: { subject: string; group: string }) {
  const peek = useLiveQuery(() => platformQueries.peekQueue(subject, group, 100), `${subject}\0${group}`, { intervalMs: 1_000, live: true });
  const [open, setOpen] = useState<string | undefined>();
  const messages = peek.data ?? [];
  return (
    <div className="pv-peek" aria-label={`Messages stored for ${group || 'no group yet'}`}>
      {peek.error ? <p className="error">{peek.error}</p> : null}
      {peek.data && messages.length === 0 ? <p className="muted">Nothing stored for this group: every message was acked.</p> : null}
      <ul>
        {messages.map((m) => (
          <li key={m.messageId} data-state={m.state}>
            <button type="button" className="link" onClick={() => setOpen(open === m.messageId ? undefined : m.messageId)}>
              {shortId(m.messageId)}
            </button>{' '}
            <span className={`pv-state state-${m.state.replace(' ', '-')}`}>{m.state}</span> · delivery {m.deliveryCount} · published {clockTime(m.publishedAt)}
            {m.state !== 'waiting' ? ` · visible ${clockTime(m.visibleAt)}` : ''}
            {open === m.messageId ? <ValueView value={m.body} label={`Body of ${m.messageId}`} /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
