import { useState } from 'react';
import type { DeleteSecretResult, SecretSummary } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { Dialog } from '../resources/Dialog.tsx';
import { messageOf } from '../resources/when.ts';

/**
 * Deletes a secret. The deployments that bind it are listed first; the platform refuses the
 * delete while they do, and forcing it says plainly that they will not start again.
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
  return (
    <Dialog title={`Delete secret ${secret.name}`} onClose={onClose}>
      {users.length > 0 ? (
        <>
          <p>Bound by:</p>
          <ul aria-label="Bound by">
            {users.map((u) => (
              <li key={`${u.deployment} ${u.variable}`}>
                deployment <code>{u.deployment}</code> as <code>{u.variable}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">No deployment binds it.</p>
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
        {users.length > 0 ? (
          <button type="button" className="rs-force" onClick={() => void remove(true)}>
            Force delete: {[...new Set(users.map((u) => u.deployment))].join(', ')} will not start
          </button>
        ) : null}
      </div>
    </Dialog>
  );
}
