import { counted } from '../../shell/format.ts';
import { useEffect, useState } from 'react';
import type { BodyView, HistoryEntry, ResponseRecord, VerificationNote } from '../../../shared/request-types.ts';
import { captures } from '../../api/request-actions.ts';
import { useStudio } from '../../store/studio-store.ts';
import { JsonTree } from '../traces/JsonTree.tsx';
import { HandshakeToken } from './HandshakeToken.tsx';
import { SseFrames } from './SseFrames.tsx';

/** The answer to a request the composer sent (or one picked from history). */
export function ResponseView({ entry }: { entry: HistoryEntry }) {
  const r = entry.response;
  const [tab, setTab] = useState<'body' | 'headers' | 'frames'>(r.frames ? 'frames' : 'body');
  const showRun = useStudio((s) => s.showRun);
  const verification = useVerification(entry);
  useEffect(() => setTab(r.frames ? 'frames' : 'body'), [entry.id, r.frames]);
  return (
    <section className="response" aria-label="Response">
      <div className="response-line">
        <span className={`status-code status-${r.status === 0 ? 'none' : `${Math.floor(r.status / 100)}xx`}`} aria-label="Response status">
          {r.status === 0 ? 'no response' : r.status}
        </span>
        <span className="muted">
          {/* No status, no headers: how long it waited is all there is to say (the error says why). */}
          {r.status === 0
            ? `${r.error?.startsWith('stopped') ? 'stopped' : r.error?.startsWith('interrupted') ? 'interrupted' : 'failed'} after ${r.timing.totalMs} ms`
            : `headers in ${r.timing.headersMs} ms · total ${r.timing.totalMs} ms${r.frames ? '' : ` · ${counted(r.body.bytes, 'byte')}`}`}
          {r.endedBy ? ` · stream ${streamEnd[r.endedBy]}` : ''}
        </span>
        {entry.signature ? <span className="tag">signed</span> : null}
        {entry.replayOf !== undefined ? <span className="tag">replay of #{entry.replayOf}</span> : null}
        <span className="spacer" />
        {entry.runId ? (
          <button type="button" className="link" onClick={() => showRun(entry.runId!)}>
            Open run {entry.runId}
          </button>
        ) : null}
        {entry.captureId !== undefined ? (
          <button type="button" className="link" onClick={() => useStudio.setState({ requestsTab: 'captures', openCapture: entry.captureId })}>
            Capture #{entry.captureId}
          </button>
        ) : null}
      </div>
      {r.error ? <p className="field-error">{r.error}</p> : null}
      {verification ? <VerificationLine note={verification} captureId={entry.captureId} /> : null}
      <div className="tabs" role="tablist" aria-label="Response parts">
        {r.frames ? (
          <button type="button" role="tab" className="tab" aria-selected={tab === 'frames'} onClick={() => setTab('frames')}>
            Frames ({r.frames.filter((f) => !f.heartbeat).length})
          </button>
        ) : null}
        <button type="button" role="tab" className="tab" aria-selected={tab === 'body'} onClick={() => setTab('body')}>
          Body
        </button>
        <button type="button" role="tab" className="tab" aria-selected={tab === 'headers'} onClick={() => setTab('headers')}>
          Headers ({r.headers.length})
        </button>
      </div>
      {tab === 'frames' && r.frames ? <SseFrames frames={r.frames} live={false} /> : null}
      {tab === 'body' ? <BodyDisplay body={r.body} label="Response body" /> : null}
      {tab === 'headers' ? <HeaderList headers={r.headers} /> : null}
    </section>
  );
}

/** Whether a request passed its signature check; a handshake's capture offers to reveal its token. */
export function VerificationLine({ note, captureId }: { note: VerificationNote; captureId?: number }) {
  return (
    <>
      <p className={`verification ${note.ok ? 'ok' : 'bad'}`} role="status" aria-label="Signature verification">
        {note.ok ? '✓ verification passed: ' : '✗ verification failed: '}
        {note.reason}
      </p>
      {note.expected !== undefined ? (
        <dl className="signatures" aria-label="Signatures compared">
          <dt>expected</dt>
          <dd>
            <code aria-label="Expected signature">{note.expected}</code>
          </dd>
          <dt>received</dt>
          <dd>
            <code aria-label="Received signature">{note.received || '(no signature header)'}</code>
          </dd>
        </dl>
      ) : null}
      {note.handshake && captureId !== undefined ? <HandshakeToken captureId={captureId} /> : null}
    </>
  );
}

/** The verification note of the capture a request produced, once the backend has it. */
function useVerification(entry: HistoryEntry): VerificationNote | undefined {
  const [note, setNote] = useState<VerificationNote | undefined>(undefined);
  useEffect(() => {
    setNote(undefined);
    if (entry.captureId === undefined) return;
    let live = true;
    captures.detail(entry.captureId).then((d) => live && setNote(d?.verification), () => {});
    return () => {
      live = false;
    };
  }, [entry.captureId]);
  return note;
}

export function HeaderList({ headers }: { headers: Array<[string, string]> }) {
  return (
    <table className="header-list">
      <tbody>
        {headers.map(([k, v], i) => (
          <tr key={i}>
            <th>{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A body as a JSON tree when it parses, else as text; binary bodies show their size. */
export function BodyDisplay({ body, label }: { body: BodyView; label: string }) {
  const [raw, setRaw] = useState(false);
  if (body.base64 !== undefined) return <p className="muted">binary body, {counted(body.bytes, 'byte')}{body.truncated ? ' (first part shown)' : ''}</p>;
  const text = body.text ?? '';
  if (text === '') return <p className="muted">empty body</p>;
  let parsed: unknown;
  let json = false;
  try {
    parsed = JSON.parse(text);
    json = true;
  } catch {
    json = false;
  }
  return (
    <div className="body-display">
      {json ? (
        <button type="button" className="link" onClick={() => setRaw(!raw)}>
          {raw ? 'Tree' : 'Raw'}
        </button>
      ) : null}
      {json && !raw ? (
        <JsonTree value={parsed} label={label} />
      ) : (
        <pre className="body-raw" aria-label={label}>
          {text}
        </pre>
      )}
      {body.truncated ? <p className="muted">Showing the first part of {counted(body.bytes, 'byte')}.</p> : null}
    </div>
  );
}

const streamEnd: Record<NonNullable<ResponseRecord['endedBy']>, string> = {
  server: 'ended by the server',
  stopped: 'stopped by you',
  error: 'broke off',
  interrupted: 'interrupted: the page that sent it was reloaded or closed',
};
