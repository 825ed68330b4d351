import { useEffect, useState } from 'react';
import type { HandshakeTokenReveal } from '../../../shared/request-types.ts';
import { revealHandshakeToken } from '../../api/request-actions.ts';

/**
 * Completes the notes subscription handshake from the studio: the token the connector captured is
 * masked everywhere (captures, runs, logs) and is fetched from the backend only when the user
 * presses Reveal. It lives in this component alone, never in the store or on disk, and Hide (or
 * leaving the capture) drops it.
 */
export function HandshakeToken({ captureId }: { captureId: number }) {
  const [shown, setShown] = useState<HandshakeTokenReveal | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  useEffect(() => {
    setShown(undefined);
    setCopied(undefined);
  }, [captureId]);

  const reveal = async (): Promise<void> => {
    setBusy(true);
    setShown(await revealHandshakeToken(captureId));
    setBusy(false);
  };

  if (!shown) {
    return (
      <div className="handshake-token" role="group" aria-label="Handshake verification token">
        <span className="muted">The verification token is masked in captures, runs and logs.</span>
        <button type="button" onClick={() => void reveal()} disabled={busy}>
          Reveal token
        </button>
      </div>
    );
  }
  if (!shown.ok) {
    return (
      <p className="field-error" role="alert">
        {shown.reason}
      </p>
    );
  }
  const connector = shown.connector ?? 'notes';
  return (
    <div className="handshake-token revealed" role="group" aria-label="Handshake verification token">
      <div className="handshake-token-line">
        <code aria-label="Verification token">{shown.token}</code>
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard?.writeText(shown.token).then(
              () => setCopied('Copied.'),
              () => setCopied('The clipboard is not available here; select the token and copy it.'),
            )
          }
        >
          Copy
        </button>
        <button type="button" onClick={() => setShown(undefined)}>
          Hide
        </button>
        {copied ? <span className="muted">{copied}</span> : null}
      </div>
      <p className="muted">
        Paste it where the notes service asks to verify the subscription.{' '}
        {shown.serving
          ? `The running connector "${connector}" checks signatures with it until the integration restarts.`
          : `The running connector "${connector}" no longer holds it: the integration restarted since.`}{' '}
        To keep it, store it as a cluster secret (Secrets) and bind it to the connector&apos;s verificationToken, e.g.{' '}
        <code>{"verificationToken: '${NOTES_VERIFICATION_TOKEN}'"}</code>.
      </p>
    </div>
  );
}
