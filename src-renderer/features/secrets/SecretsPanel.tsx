import { useState } from 'react';
import type { SecretSummary } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { messageOf, when } from '../resources/when.ts';
import '../resources/resources.css';
import { DeleteSecretDialog } from './DeleteSecretDialog.tsx';
import { PlatformSecretsSection } from './PlatformSecretsSection.tsx';
import { SecretBackendBanner } from './SecretBackendBanner.tsx';
import { SecretValueDialog } from './SecretValueDialog.tsx';

type Editing = { kind: 'new' } | { kind: 'overwrite'; name: string } | { kind: 'delete'; secret: SecretSummary };

/** Cluster secrets of the embedded platform: names, times and who binds them; values go in and never come out. */
export function SecretsPanel() {
  const secrets = useLiveQuery(() => resourceCalls.listSecrets(), 'secrets', { intervalMs: 0, live: false });
  const status = useLiveQuery(() => resourceCalls.secretStoreStatus(), 'secret-status', { intervalMs: 0, live: false });
  const [editing, setEditing] = useState<Editing | undefined>();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const done = (text: string): void => {
    setEditing(undefined);
    setMessage({ ok: true, text });
    secrets.refresh();
  };

  return (
    <section className="panel rs-panel" aria-labelledby="panel-title">
      <PanelHeader title="Secrets">
        <button type="button" className="primary" onClick={() => setEditing({ kind: 'new' })}>
          New secret
        </button>
      </PanelHeader>
      <SecretBackendBanner
        status={status.data}
        onOptIn={() => void resourceCalls.allowWeakSecretBackend().then(status.refresh, (err: unknown) => setMessage({ ok: false, text: messageOf(err) }))}
      />
      {message ? (
        <div className={`rs-message ${message.ok ? 'rs-ok' : 'rs-error'}`} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </div>
      ) : null}
      {secrets.error ? <p className="rs-message rs-error">{secrets.error}</p> : null}
      <div className="rs-scroll">
        {secrets.data && secrets.data.length === 0 ? (
          <EmptyState title="No secrets yet">
            A secret is a name and a value kept encrypted by the embedded platform. Bind it to a declared variable in a deployment, or in Resources → Environment for studio runs;
            its value is never shown again.
          </EmptyState>
        ) : (
          <table className="rs-table" aria-label="Secrets">
            <thead>
              <tr>
                <th>Name</th>
                <th>Created</th>
                <th>Updated</th>
                <th>Bound by</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {(secrets.data ?? []).map((s) => (
                <tr key={s.name} aria-label={s.name}>
                  <td>
                    <code>{s.name}</code>
                  </td>
                  <td>{when(s.createdAt)}</td>
                  <td>
                    {when(s.updatedAt)} <span className="muted">by {s.updatedBy}</span>
                  </td>
                  <td data-field="used-by">
                    {s.usedBy.length === 0 && s.studioRuns.length === 0 ? <span className="muted">no deployment, no studio run</span> : null}
                    {s.usedBy.map((u) => (
                      <div key={`${u.deployment} ${u.variable}`}>
                        <code>{u.deployment}</code> <span className="muted">as {u.variable}</span>
                      </div>
                    ))}
                    {s.studioRuns.map((u) => (
                      <div key={`run ${u.integration} ${u.variable}`}>
                        studio runs of <code>{u.integration}</code> <span className="muted">as {u.variable}</span>
                      </div>
                    ))}
                  </td>
                  <td>
                    <span className="rs-row">
                      <button type="button" onClick={() => setEditing({ kind: 'overwrite', name: s.name })}>
                        Overwrite…
                      </button>
                      <button type="button" className="rs-danger" onClick={() => setEditing({ kind: 'delete', secret: s })}>
                        Delete…
                      </button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <PlatformSecretsSection onMessage={setMessage} />
      </div>
      {editing?.kind === 'new' || editing?.kind === 'overwrite' ? (
        <SecretValueDialog
          name={editing.kind === 'overwrite' ? editing.name : undefined}
          onClose={() => setEditing(undefined)}
          onSaved={(name) => done(`Stored ${name}. Its value will not be shown again.`)}
        />
      ) : null}
      {editing?.kind === 'delete' ? (
        <DeleteSecretDialog
          secret={editing.secret}
          onClose={() => setEditing(undefined)}
          onDeleted={(r) => {
            const broken = [
              ...r.brokenDeployments.map((b) => `${b.deployment} (${b.variable})`),
              ...r.brokenStudioRuns.map((b) => `studio runs of ${b.integration} (${b.variable})`),
            ];
            done(broken.length > 0 ? `Deleted ${r.deleted}; ${broken.join(', ')} will not start until bound to another secret.` : `Deleted ${r.deleted}.`);
          }}
        />
      ) : null}
    </section>
  );
}
