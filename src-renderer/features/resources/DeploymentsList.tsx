import { useState } from 'react';
import type { DeploymentSummary } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { EnvironmentTable } from './EnvironmentTable.tsx';
import { messageOf, when } from './when.ts';

/** Local deployments of an integration's tags: status, snapshot, routes; start, stop, environment, remove. */
export function DeploymentsList({ integration, nonce }: { integration: string; nonce: number }) {
  const list = useLiveQuery(() => resourceCalls.listDeployments(), `deployments\0${nonce}`, { intervalMs: 2_000, live: true });
  const [error, setError] = useState<string | undefined>();
  const [showing, setShowing] = useState<string | undefined>();
  const mine = (list.data ?? []).filter((d) => d.integration === integration);

  const act = async (op: () => Promise<unknown>): Promise<void> => {
    try {
      await op();
      setError(undefined);
    } catch (err) {
      setError(messageOf(err));
    }
    list.refresh();
  };

  return (
    <section aria-label="Deployments">
      <h4>Local deployments</h4>
      {error ? (
        <p className="rs-message rs-error" role="alert">
          {error}
        </p>
      ) : null}
      {mine.length === 0 ? (
        <p className="muted rs-hint">None yet: deploy a tag above.</p>
      ) : (
        <table className="rs-table">
          <thead>
            <tr>
              <th>Deployment</th>
              <th>Tag</th>
              <th>Snapshot</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {mine.map((d) => (
              <DeploymentRow key={d.id} d={d} showing={showing === d.id} onShow={() => setShowing(showing === d.id ? undefined : d.id)} act={act} />
            ))}
          </tbody>
        </table>
      )}
      {showing ? <DeploymentEnvironment id={showing} /> : null}
    </section>
  );
}

function DeploymentRow({ d, showing, onShow, act }: { d: DeploymentSummary; showing: boolean; onShow: () => void; act: (op: () => Promise<unknown>) => Promise<void> }) {
  const running = d.status === 'running' || d.status === 'starting';
  return (
    <tr aria-label={d.id}>
      <td>
        <code>{d.id}</code>
        <div className="rs-hint muted">
          {when(d.createdAt)} by {d.createdBy}
        </div>
      </td>
      <td>{d.tag}</td>
      <td>
        <code data-field="snapshot">{d.snapshotId}</code>
      </td>
      <td data-field="status">
        <span className={d.status === 'running' ? 'rs-ok' : d.status === 'failed' ? 'rs-error' : 'muted'}>{d.status}</span>
        {d.reason ? <div className="rs-problem">{d.reason}</div> : null}
        {d.routes.map((r) => (
          <div key={r.url} className="rs-hint">
            <code className="route-url">{r.url}</code>
          </div>
        ))}
      </td>
      <td>
        <span className="rs-row">
          {running ? (
            <button type="button" onClick={() => void act(() => resourceCalls.stopDeployment(d.id))}>
              Stop
            </button>
          ) : (
            <button type="button" onClick={() => void act(() => resourceCalls.startDeployment(d.id))}>
              Start
            </button>
          )}
          <button type="button" aria-pressed={showing} onClick={onShow}>
            Environment
          </button>
          <ConfirmButton label="Remove…" question={`Stop and remove ${d.id}?`} confirmLabel="Remove" onConfirm={() => void act(() => resourceCalls.removeDeployment(d.id))} />
        </span>
      </td>
    </tr>
  );
}

function DeploymentEnvironment({ id }: { id: string }) {
  const view = useLiveQuery(() => resourceCalls.environmentView({ kind: 'deployment', deployment: id }), `denv\0${id}`, { intervalMs: 0, live: false });
  return (
    <section aria-label={`Environment of ${id}`}>
      <h4>Environment of {id}</h4>
      {view.error ? <p className="rs-message rs-error">{view.error}</p> : view.data ? <EnvironmentTable view={view.data} /> : <p className="muted">Loading…</p>}
    </section>
  );
}
