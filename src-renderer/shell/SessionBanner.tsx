import { useStudio } from '../store/studio-store.ts';

/**
 * Said once this window can no longer follow the studio: it restarted (a reload picks up the new
 * launch, its history and the integrations it started again), or the session was refused (the
 * URL the studio printed carries a new token). The window has stopped asking for anything.
 */
export function SessionBanner() {
  const ended = useStudio((s) => s.sessionEnded);
  if (!ended) return null;
  return (
    <div className="session-banner" role="alert" aria-label="Studio restarted">
      <span>
        {ended === 'restarted' ? (
          <>
            <strong>Flow Studio restarted.</strong> This window stopped following it; reload to see the runs, requests and integrations as they are now.
          </>
        ) : (
          <>
            <strong>This window's session ended.</strong> Flow Studio restarted with a new session; reload, or open the URL <code>flow-studio serve</code> printed.
          </>
        )}
      </span>
      <button type="button" className="primary" onClick={() => location.reload()}>
        Reload
      </button>
    </div>
  );
}
