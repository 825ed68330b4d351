import { useState } from 'react';
import type { DeleteSecretResult, SecretSummary } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { Dialog } from '../resources/Dialog.tsx';
import { messageOf } from '../resources/when.ts';

/**
 * Deletes a secret. The deployments and studio runs that bind it are listed first; the delete
 * is refused while they do, and forcing it says plainly that they will not start again.
 */
export function DeleteSecretDialog({ secret, onClose, onDeleted }: { secret: SecretSummary; onClose: () => void; onDeleted: (r: DeleteSecretResult) => void }) {
  const [error, setError] = useState<string | undefined>();
  const remove = async (force: boolean): Promise<void> => {
    try {
      onDeleted(await resourceCalls.deleteSecret(secret.name, force));
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const users = secret.usedBy;
  const runs = secret.studioRuns;
  const bound = users.length + runs.length > 0;
  const breaks = [...new Set(users.map((u) => u.deployment))].concat(runs.length > 0 ? [`studio runs of ${[...new Set(runs.map((u) => u.integration))].join(', ')}`] : []);
  return (
    <Dialog title={`Delete secret ${secret.name}`} onClose={onClose}>
      {bound ? (
        <>
          <p>Bound by:</p>
          <ul aria-label="Bound by">
            {users.map((u) => (
              <li key={`${u.deployment} ${u.variable}`}>
                deployment <code>{u.deployment}</code> as <code>{u.variable}</code>
              </li>
            ))}
            {runs.map((u) => (
              <li key={`run ${u.integration} ${u.variable}`}>
                studio runs of <code>{u.integration}</code> as <code>{u.variable}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">Nothing binds it: no deployment, no studio run.</p>
      )}
      {error ? (
        <p className="rs-message rs-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="rs-dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="rs-danger" onClick={() => void remove(false)}>
          Delete
        </button>
        {bound ? (
          <button type="button" className="rs-force" onClick={() => void remove(true)}>
            Force delete: {breaks.join(', ')} will not start
          </button>
        ) : null}
      </div>
    </Dialog>
  );
}
