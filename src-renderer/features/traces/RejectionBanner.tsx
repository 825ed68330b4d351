import type { RunDetail } from '../../../shared/trace-types.ts';

/**
 * A rejection by the flow's source itself (a body that is not JSON, or too large), before any
 * step ran: a refusal, not a failed verification, and its reason is the run's whole error.
 */
export function refusedBeforeFlow(run: RunDetail): boolean {
  return run.summary.rejection?.step === `flows.${run.summary.flow}.source`;
}

/**
 * Why the run's request was turned away: by a verification step (its reason, and what it expected
 * against what the request carried: a JWT's issuer, audience, algorithm and expiry; a notes
 * signature), or by the source before the flow ran (its reason, once).
 */
export function RejectionBanner({ run }: { run: RunDetail }) {
  const rejection = run.summary.rejection;
  if (!rejection) return null;
  const note = run.verification;
  const jwt = rejection.block === 'jwt-verify';
  const refused = refusedBeforeFlow(run);
  return (
    <div className="rejection-banner" role="alert" aria-label={refused ? 'Request refused before the flow ran' : 'Verification failed'}>
      <p>
        <strong>{refused ? `✗ Refused by the ${rejection.block} source before the flow ran` : `✗ Rejected by ${rejection.block}`}</strong> <code className="muted">{rejection.step}</code>
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
