import { useEffect, useState } from 'react';
import type { CaptureDetail } from '../../../shared/request-types.ts';
import { captures, editCapture, replayCapture } from '../../api/request-actions.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime, counted } from '../../shell/format.ts';
import { BodyDisplay, HeaderList, VerificationLine } from './ResponseView.tsx';
import { SaveCaptureAsTest } from '../traces/SaveAsTest.tsx';

/**
 * One captured request: exactly what came in and what went out, whether it passed signature
 * verification and why not, the run it started, and replay (as is, or edited in the composer).
 * A replay goes to the integration's current server, so it runs the flow as it is now; the
 * replayed request opens in the composer with its answer below it.
 */
export function CaptureView({ id }: { id: number }) {
  const [c, setC] = useState<CaptureDetail | null | undefined>(undefined);
  const version = useStudio((s) => s.captureVersion);
  const showRun = useStudio((s) => s.showRun);
  const inFlight = useStudio((s) => s.inFlight);
  useEffect(() => {
    let live = true;
    captures.detail(id).then((d) => live && setC(d), () => live && setC(null));
    return () => {
      live = false;
    };
  }, [id, version]);

  if (c === undefined) return <p className="muted">Loading capture #{id}…</p>;
  if (c === null) return <p className="muted">Capture #{id} is no longer kept.</p>;
  return (
    <section className="capture-view" aria-label={`Capture ${c.id}`}>
      <header className="capture-head">
        <h3>
          <span className="method">{c.method}</span> {c.target}
        </h3>
        <div className="muted">
          #{c.id} · {c.integration}
          {c.flow ? ` · flow ${c.flow}` : ' · no route matched'} · {clockTime(c.startedAt)} · {c.durationMs.toFixed(1)} ms
          {c.ended === 'client-closed' ? ' · the caller closed the connection' : ''}
        </div>
        <div className="capture-actions">
          <button
            type="button"
            className="primary"
            disabled={inFlight !== undefined}
            onClick={() => {
              // The request opens in the composer and its answer comes in below it.
              void replayCapture(c.id);
            }}
          >
            Replay
          </button>
          <button type="button" onClick={() => void editCapture(c.id)}>
            Edit and replay…
          </button>
          {c.runId ? (
            <button type="button" className="link" onClick={() => showRun(c.runId!)}>
              Open run {c.runId}
            </button>
          ) : null}
          {c.runId ? <SaveCaptureAsTest runId={c.runId} /> : null}
        </div>
      </header>
      {c.verification ? <VerificationLine note={c.verification} captureId={c.id} /> : null}
      <div className="capture-columns">
        <div>
          <h4>Request</h4>
          <HeaderList headers={c.requestHeaders} />
          <BodyDisplay body={c.requestBody} label="Captured request body" />
        </div>
        <div>
          <h4>
            Response <span className={`status-code status-${c.status === 0 ? 'none' : `${Math.floor(c.status / 100)}xx`}`}>{c.status || 'none'}</span>
          </h4>
          <HeaderList headers={c.responseHeaders} />
          {c.stream ? <p className="muted">An event stream ({counted(c.responseBody.bytes, 'byte')} written).</p> : null}
          <BodyDisplay body={c.responseBody} label="Captured response body" />
        </div>
      </div>
    </section>
  );
}
