import { useStudio } from '../../store/studio-store.ts';
import { useNow } from '../../components/use-live-query.ts';
import { waited } from './waited.ts';

/** Every paused run with how long it has waited; picking one shows it. */
export function PausedRunList() {
  const paused = useStudio((s) => s.pausedRuns);
  const thread = useStudio((s) => s.debugThread);
  const show = useStudio((s) => s.showDebugThread);
  const now = useNow(1000);
  if (paused.length === 0) return <p className="muted debug-none">No run is paused. Set a breakpoint in a flow’s gutter, then send a request.</p>;
  return (
    <ul className="debug-runs" aria-label="Paused runs">
      {paused.map((p) => (
        <li key={p.thread}>
          <button type="button" className={`debug-run${p.thread === thread ? ' selected' : ''}`} aria-current={p.thread === thread} onClick={() => show(p.thread)}>
            <span className="debug-run-title">
              <strong>{p.flow}</strong> <span className="muted">{p.runId}</span>
              {p.origin !== 'live' ? <span className="tag">{p.origin}</span> : null}
            </span>
            <span className="debug-run-step">before {p.frames[0]?.name ?? p.frames[0]?.block ?? 'step'}</span>
            <span className="debug-run-waited" title={`paused at ${new Date(p.pausedAt).toLocaleTimeString()}`}>
              waited {waited(now - p.pausedAt)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
