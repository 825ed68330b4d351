import { useEffect, useState } from 'react';
import type { CapturePage } from '../../../shared/request-types.ts';
import { captures } from '../../api/request-actions.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime } from '../../shell/format.ts';

const SEARCH_DEBOUNCE_MS = 120;

/**
 * Every request that reached a route while the studio ran, newest first, from any client (curl,
 * a webhook sender, the composer). Searchable by path, status, header and body text.
 */
export function CaptureList() {
  const version = useStudio((s) => s.captureVersion);
  const open = useStudio((s) => s.openCapture);
  const setOpen = useStudio((s) => s.setOpenCapture);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState<CapturePage | undefined>(undefined);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      captures.list(search).then((p) => live && setPage(p), () => {});
    }, search ? SEARCH_DEBOUNCE_MS : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, version]);

  return (
    <div className="capture-list">
      <input
        type="search"
        aria-label="Search captures"
        placeholder="path:/webhooks status:4xx header:x-event body:inv-7"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <div className="muted side-count">
        {page ? `${page.total} captured` : 'Loading…'}
        {page && page.total > 0 ? (
          <button
            type="button"
            className="link"
            onClick={() => {
              void captures.clear().then(() => {
                setOpen(undefined);
                useStudio.setState((s) => ({ captureVersion: s.captureVersion + 1 }));
              });
            }}
          >
            clear
          </button>
        ) : null}
      </div>
      {page && page.total === 0 ? (
        <p className="muted side-empty">{search ? 'Nothing matches.' : 'Requests that reach a route of a running integration, from anywhere, are listed here.'}</p>
      ) : null}
      <ul className="side-list" aria-label="Captured requests">
        {page?.rows.map((c) => (
          <li key={c.id}>
            <button type="button" className={`side-item${open === c.id ? ' selected' : ''}`} aria-current={open === c.id ? 'true' : undefined} onClick={() => setOpen(c.id)} data-capture={c.id}>
              <span className={`status-code small status-${c.status === 0 ? 'none' : `${Math.floor(c.status / 100)}xx`}`}>{c.status || '—'}</span>
              <span className="method">{c.method}</span>
              <span className="side-main">{c.target}</span>
              {c.verification && !c.verification.ok ? <span className="tag tag-error" title={c.verification.reason}>unverified</span> : null}
              {c.ended === 'client-closed' ? <span className="tag" title="The caller closed the connection before the answer ended">closed</span> : null}
              <span className="muted side-time">{clockTime(c.startedAt)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
