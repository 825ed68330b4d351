import type { RunState } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';

/** The bottom line: each integration's run state and routes, and what the live feed lost. */
export function StatusBar() {
  const runs = useStudio((s) => s.runs);
  const dropped = useStudio((s) => s.dropped);
  const tracesDropped = useStudio((s) => s.tracesDropped);
  const runsNotTraced = useStudio((s) => s.runsNotTraced);
  const known = useStudio((s) => s.runsKnown);
  const ended = useStudio((s) => s.sessionEnded);
  // After the studio restarted, what this window knew of its runs is stale: say so instead.
  // The integration that changed last comes first: the one being worked on stays named.
  const shown = ended ? [] : Object.values(runs).filter((r) => r.status !== 'stopped').sort((a, b) => b.since - a.since);
  return (
    <footer className="status-bar" aria-label="Status">
      {ended ? <span className="status-item status-failed">disconnected: {ended === 'restarted' ? 'the studio restarted' : 'the session ended'}</span> : null}
      {!ended && shown.length === 0 ? <span className="muted">{known ? 'nothing running' : 'checking what runs…'}</span> : null}
      {shown.slice(0, SHOWN).map((r) => (
        <span key={r.integration} className={`status-item status-${r.status}`} data-integration={r.integration} title={describe(r)}>
          {short(r)}
        </span>
      ))}
      {shown.length > SHOWN ? (
        <span className="status-item status-more" title={shown.slice(SHOWN).map(describe).join('\n')}>
          +{shown.length - SHOWN} more
        </span>
      ) : null}
      <span className="spacer" />
      {dropped > 0 ? (
        <span className="dropped" role="status" title="Live events the window could not keep up with">
          dropped {dropped}
        </span>
      ) : null}
      {tracesDropped > 0 ? (
        <span className="dropped" role="status" data-testid="traces-dropped" title="Trace records not kept because tracing fell behind the request rate; requests were not slowed">
          traces dropped {tracesDropped}
        </span>
      ) : null}
      {runsNotTraced > 0 ? (
        <span
          className="dropped"
          role="status"
          data-testid="runs-not-traced"
          title="Runs answered but not recorded: the runtime was saturated, so it traced at most FLOW_TRACE_SATURATED_RATE runs a second (250 in the studio unless set), within 3% of its CPU, rather than slow requests"
        >
          not traced under load {runsNotTraced}
        </span>
      ) : null}
      <span className="muted status-hint">Ctrl+K commands</span>
    </footer>
  );
}

/** Integrations named one by one; the rest are counted, each whole on hover. */
const SHOWN = 4;

/** Name, state and version: short enough that several fit whole; URLs and reasons are on hover. */
function short(r: RunState): string {
  return `${r.integration}: ${r.status}` + (r.serving ? ` v${r.serving.generation}` : '');
}

/** Name and state first, then every URL and a failure's reason. */
function describe(r: RunState): string {
  return (
    `${r.integration}: ${r.status}` +
    (r.serving ? ` v${r.serving.generation}` : '') +
    (r.routes.length > 0 ? ` · ${r.routes.map((x) => x.url).join(' · ')}` : '') +
    (r.status === 'failed' && r.reason ? ` · ${r.reason}` : '')
  );
}
