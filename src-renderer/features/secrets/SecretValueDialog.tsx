import { useRef, useState } from 'react';
import { resourceCalls } from '../../api/resource-calls.ts';
import { Dialog } from '../resources/Dialog.tsx';
import { messageOf } from '../resources/when.ts';

/**
 * Creates a secret or overwrites one. The value field is write-only: it is not React state (so
 * it is never mirrored into the DOM as an attribute), it is emptied the moment it is sent, and no
 * answer carries it back.
 */
export function SecretValueDialog({
  name: fixedName,
  kind = 'secret',
  store = (name, value) => resourceCalls.putSecret(name, value),
  onClose,
  onSaved,
}: {
  name?: string;
  /** What the dialog's title calls it: a cluster secret, or a platform secret flows read with secret(). */
  kind?: 'secret' | 'platform secret';
  store?: (name: string, value: string) => Promise<unknown>;
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const [name, setName] = useState(fixedName ?? '');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const valueField = useRef<HTMLInputElement>(null);

  const save = async (): Promise<void> => {
    const field = valueField.current;
    if (!field) return;
    const value = field.value;
    if (value === '') return setError('Type the value; it is sent once and never shown again.');
    field.value = '';
    setSaving(true);
    try {
      await store(name.trim(), value);
      onSaved(name.trim());
    } catch (err) {
      setError(`${messageOf(err)} The value was not kept; type it again.`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog title={fixedName ? `Overwrite ${kind} ${fixedName}` : `New ${kind}`} onClose={onClose}>
      <form
        className="rs-form"
        aria-label="Secret"
        autoComplete="off"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Name
          <input value={name} readOnly={fixedName !== undefined} placeholder="orders-db-password" onChange={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Value (write-only)
          <input ref={valueField} type="password" autoComplete="new-password" spellCheck={false} aria-describedby="secret-value-note" />
        </label>
        <p id="secret-value-note" className="rs-hint muted">
          The value goes to the secret store once. It is never shown again, not even here; to change it, overwrite it.
        </p>
        {error ? (
          <p className="rs-message rs-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="rs-dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={saving || name.trim() === ''}>
            {fixedName ? 'Overwrite' : 'Store secret'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
