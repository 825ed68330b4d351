import type { HistoryEntry } from '../../../shared/request-types.ts';
import { clearHistory, deleteSaved } from '../../api/request-actions.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime } from '../../shell/format.ts';
import { requestForRoute, useRunningRoutes } from './Composer.tsx';
import { composerOfSent, retarget } from './compose-request.ts';

/** The running integrations' routes; one click starts a request to it. */
export function RouteChooser() {
  const routes = useRunningRoutes();
  const setComposer = useStudio((s) => s.setComposer);
  if (routes.length === 0) return <p className="muted side-empty">Run an integration with an http source (Flows panel); its routes appear here.</p>;
  return (
    <ul className="side-list" aria-label="Routes">
      {routes.map((r) => (
        <li key={`${r.integration} ${r.route.url}`}>
          <button
            type="button"
            className="side-item"
            onClick={() => {
              const s = useStudio.getState();
              setComposer(retarget(s.composer, requestForRoute(r)));
              s.showEntry(undefined);
            }}
            aria-label={`New request to ${r.route.path} of ${r.integration}`}
          >
            <span className="method">{r.route.methods.join(',') || 'ANY'}</span>
            <span className="side-main">{r.route.path}</span>
            <span className="muted">{r.integration}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Requests saved as files under the workspace's requests/ folder. */
export function SavedList() {
  const saved = useStudio((s) => s.saved);
  const current = useStudio((s) => s.composerFile);
  const setComposer = useStudio((s) => s.setComposer);
  if (saved.length === 0) return <p className="muted side-empty">Name a request in the composer and save it; it becomes a file under requests/ in the workspace, for git.</p>;
  return (
    <ul className="side-list" aria-label="Saved requests">
      {saved.map((s) => (
        <li key={s.file} className="side-row">
          <button type="button" className={`side-item${current === s.file ? ' selected' : ''}`} onClick={() => setComposer(s.request, s.file)}>
            <span className="method">{s.request.method}</span>
            <span className="side-main">{s.request.name}</span>
            <span className="muted">{s.file}</span>
          </button>
          <button type="button" className="icon" aria-label={`Delete ${s.file}`} onClick={() => void deleteSaved(s.file)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Every request sent, newest first; picking one shows its answer and loads it into the composer. */
export function HistoryList() {
  const history = useStudio((s) => s.history);
  const shown = useStudio((s) => s.shownEntry);
  if (history.length === 0) return <p className="muted side-empty">Requests you send are kept here with their responses.</p>;
  return (
    <>
      <div className="side-count muted">
        {history.length} sent{' '}
        <button type="button" className="link" onClick={() => void clearHistory()}>
          clear
        </button>
      </div>
      <ul className="side-list" aria-label="History">
        {history.map((h) => (
          <li key={h.id}>
            <button type="button" className={`side-item${shown?.id === h.id ? ' selected' : ''}`} onClick={() => openHistory(h)}>
              <span className={`status-code small status-${h.response.status === 0 ? 'none' : `${Math.floor(h.response.status / 100)}xx`}`}>{h.response.status || '—'}</span>
              <span className="method">{h.request.method}</span>
              <span className="side-main">{pathOf(h.request.url)}</span>
              <span className="muted side-time">{clockTime(h.sentAt)}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

function openHistory(entry: HistoryEntry): void {
  const s = useStudio.getState();
  // Back at its route, not at the URL it went to: a re-send follows the route to its port now.
  // The history shows it masked; sent again, its masked values go out as they were sent.
  s.setComposer({ ...composerOfSent(entry.request), fromHistory: entry.id });
  s.showEntry(entry);
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
