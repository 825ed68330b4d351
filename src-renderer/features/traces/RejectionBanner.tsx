import type { RunDetail } from '../../../shared/trace-types.ts';

/**
 * Why a verification step turned the run's request away: its reason, and what it expected against
 * what the request carried (a JWT's issuer, audience, algorithm and expiry; a notes signature).
 */
export function RejectionBanner({ run }: { run: RunDetail }) {
  const rejection = run.summary.rejection;
  if (!rejection) return null;
  const note = run.verification;
  const jwt = rejection.block === 'jwt-verify';
  return (
    <div className="rejection-banner" role="alert" aria-label="Verification failed">
      <p>
        <strong>✗ Rejected by {rejection.block}</strong> <code className="muted">{rejection.step}</code>
        <br />
        {note?.reason ?? rejection.reason}
      </p>
      {note?.expected !== undefined ? (
        <dl className="expected-received" aria-label={jwt ? 'Token compared' : 'Signatures compared'}>
          <dt>expected</dt>
          <dd>
            <code aria-label="Expected">{note.expected}</code>
          </dd>
          <dt>received</dt>
          <dd>
            <code aria-label="Received">{note.received || (jwt ? '(no token)' : '(no signature header)')}</code>
          </dd>
        </dl>
      ) : null}
    </div>
  );
}
