import { useState } from 'react';

/**
 * A destructive action asked twice: the first click shows the question with a confirm and a
 * cancel button in place, so nothing is lost by a stray click and no modal dialog is needed.
 */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, disabled }: { label: string; question: string; confirmLabel: string; onConfirm: () => void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="pv-danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="pv-confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        className="pv-danger primary"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
