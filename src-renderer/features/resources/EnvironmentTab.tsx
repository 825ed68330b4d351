import { useState } from 'react';
import type { Binding, EnvironmentVariable, SecretSummary } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { BindingFields, bindingOf, draftOf } from './BindingFields.tsx';
import { EnvironmentTable } from './EnvironmentTable.tsx';
import { messageOf } from './when.ts';

/**
 * The environment a studio run of the working copy gets, kept current while shown (env files and
 * definitions change on disk), with the run's own bindings editable per variable.
 */
export function EnvironmentTab({ integration }: { integration: string }) {
  const view = useLiveQuery(() => resourceCalls.environmentView({ kind: 'working-copy', integration }), `env\0${integration}`, { intervalMs: 1_500, live: true });
  const bindings = useLiveQuery(() => resourceCalls.runBindings(integration), `bindings\0${integration}`, { intervalMs: 0, live: false });
  const secrets = useLiveQuery(() => resourceCalls.listSecrets(), 'secrets', { intervalMs: 0, live: false });
  const [error, setError] = useState<string | undefined>();

  const bind = async (variable: string, binding: Binding | null): Promise<void> => {
    try {
      await resourceCalls.setRunBinding(integration, variable, binding);
      setError(undefined);
      bindings.refresh();
      view.refresh();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <div className="rs-scroll">
      <p className="rs-hint muted">
        What a run of the working copy in the studio gets: its bindings, then the studio&apos;s own environment, then the env files in order, then the declared
        defaults. Saving a binding reloads a running integration.
      </p>
      {error ? (
        <p className="rs-message rs-error" role="alert">
          {error}
        </p>
      ) : null}
      {view.error && !view.data ? <p className="rs-message rs-error">{view.error}</p> : null}
      {view.data ? (
        <EnvironmentTable
          view={view.data}
          binding={(v) => (
            <BindingEditor key={`${v.name}\0${JSON.stringify(bindings.data?.[v.name] ?? null)}`} v={v} current={bindings.data?.[v.name]} secrets={secrets.data ?? []} onBind={bind} />
          )}
        />
      ) : (
        <p className="muted">Loading…</p>
      )}
    </div>
  );
}

function BindingEditor({ v, current, secrets, onBind }: { v: EnvironmentVariable; current: Binding | undefined; secrets: SecretSummary[]; onBind: (variable: string, b: Binding | null) => Promise<void> }) {
  const [draft, setDraft] = useState(() => draftOf(current, secrets));
  const next = bindingOf(draft, secrets);
  const unchanged = JSON.stringify(next) === JSON.stringify(current ?? null);
  return (
    <form
      className="rs-row"
      aria-label={`Bind ${v.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void onBind(v.name, next);
      }}
    >
      <BindingFields name={v.name} secret={v.secret} draft={draft} secrets={secrets} onChange={setDraft} />
      <button type="submit" disabled={unchanged}>
        Save
      </button>
    </form>
  );
}
