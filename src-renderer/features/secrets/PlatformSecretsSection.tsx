import { useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { messageOf, when } from '../resources/when.ts';
import { SecretValueDialog } from './SecretValueDialog.tsx';

/** Where secret("name") reads (the platform's KV namespace for a flow's secrets). */
const NAMESPACE = 'user_secrets';

/**
 * Platform secrets: the values flows read with secret("name"), kept sealed in the platform's
 * user_secrets namespace. Names and times are listed; a value is typed in once and never shown.
 */
export function PlatformSecretsSection({ onMessage }: { onMessage: (m: { ok: boolean; text: string }) => void }) {
  const view = useLiveQuery(() => platformQueries.kvView({ namespace: NAMESPACE }), 'platform-secrets', { intervalMs: 2_000, live: true });
  const [editing, setEditing] = useState<{ name?: string } | undefined>();
  const keys = view.data?.keys ?? [];
  const remove = (name: string, version: number): void =>
    void platformQueries.deleteKvEntry(NAMESPACE, name, version).then(
      (r) => {
        onMessage(r.ok ? { ok: true, text: `Deleted ${name}.` } : { ok: false, text: `${r.conflict} Nothing was deleted.` });
        view.refresh();
      },
      (err: unknown) => onMessage({ ok: false, text: messageOf(err) }),
    );

  return (
    <section aria-labelledby="platform-secrets-title" className="rs-platform-secrets">
      <div className="rs-detail-head">
        <h3 id="platform-secrets-title">Platform secrets</h3>
        <span className="spacer" />
        <button type="button" onClick={() => setEditing({})}>
          New platform secret
        </button>
      </div>
      <p className="rs-hint muted">
        Flows read these with <code>secret(&quot;name&quot;)</code>; the platform keeps them sealed in its {NAMESPACE} namespace. A running flow picks up a new value within a
        minute, or at once when restarted.
      </p>
      {view.error ? <p className="rs-message rs-error">{view.error}</p> : null}
      {keys.length === 0 ? (
        <p className="muted">No platform secret yet.</p>
      ) : (
        <table className="rs-table" aria-label="Platform secrets">
          <thead>
            <tr>
              <th>Name</th>
              <th>Updated</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.key} aria-label={k.key}>
                <td>
                  <code>{k.key}</code>
                </td>
                <td>{k.updatedAt !== undefined ? when(k.updatedAt) : ''}</td>
                <td>
                  <span className="rs-row">
                    <button type="button" onClick={() => setEditing({ name: k.key })}>
                      Overwrite…
                    </button>
                    <ConfirmButton label="Delete…" question={`Delete ${k.key}? Flows reading it will fail.`} confirmLabel="Delete" onConfirm={() => remove(k.key, k.version)} />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <SecretValueDialog
          name={editing.name}
          kind="platform secret"
          store={(name, value) => platformQueries.setPlatformSecret(name, value)}
          onClose={() => setEditing(undefined)}
          onSaved={(name) => {
            setEditing(undefined);
            onMessage({
              ok: true,
              text: `Stored ${name} for secret("${name}"). Its value will not be shown again.`,
            });
            view.refresh();
          }}
        />
      ) : null}
    </section>
  );
}
