import type { RunCall } from '../../../shared/trace-types.ts';

interface RecordedEdit {
  path: string;
  before: unknown;
  after: unknown;
  by?: string;
}

/** A pause in the debugger as a trace records it: who let the run go, how, and each edit with before and after. */
export function PauseRecord({ call }: { call: RunCall }) {
  const d = call.detail ?? {};
  const edits = Array.isArray(d.edits) ? (d.edits as RecordedEdit[]) : [];
  return (
    <div className="pause-record" data-testid="pause-record">
      <span className="muted">
        {String(d.action ?? 'went on')} by {String(d.by ?? 'someone')} after {(call.durationMs / 1000).toFixed(1)} s
      </span>
      {edits.length > 0 ? (
        <ul aria-label="Edits made while paused">
          {edits.map((e, i) => (
            <li key={i}>
              <code>{e.path}</code>: <code>{JSON.stringify(e.before)}</code> → <code>{JSON.stringify(e.after)}</code>
              {e.by ? <span className="muted"> ({e.by})</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <span className="muted"> · no edits</span>
      )}
    </div>
  );
}
