import type { IntegrationSummary, RunState } from '../../../shared/studio-api.ts';
import { runAction } from '../../api/run-actions.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { RunProblems } from './RunProblems.tsx';
import { RouteList } from './RouteList.tsx';

/** The integrations of the workspace with one-click Run, Stop and Restart. */
export function FlowsPanel() {
  const integrations = useStudio((s) => s.integrations);
  const loaded = useStudio((s) => s.integrationsLoaded);
  const workspace = useStudio((s) => s.workspace);
  return (
    <section className="panel" aria-labelledby="panel-title">
      <PanelHeader title="Flows">{workspace ? <span className="muted">{workspace.root}</span> : null}</PanelHeader>
      {loaded && integrations.length === 0 ? (
        <EmptyState title="No integrations in the workspace">
          Add a folder with a flow definition (a .yaml file) to {workspace?.root ?? 'the workspace'}; it shows up here as soon as it is saved.
        </EmptyState>
      ) : (
        <ul className="integration-list" aria-label="Integrations">
          {integrations.map((i) => (
            <IntegrationCard key={i.id} integration={i} />
          ))}
        </ul>
      )}
    </section>
  );
}

function IntegrationCard({ integration }: { integration: IntegrationSummary }) {
  const run = useStudio((s) => s.runs[integration.id]) as RunState | undefined;
  const status = run?.status ?? 'stopped';
  const busy = status === 'starting';
  const active = status === 'running' || status === 'starting';
  return (
    <li className="integration" aria-label={integration.name} data-status={status}>
      <div className="integration-head">
        <div>
          <h3>{integration.name}</h3>
          <div className="muted">
            {integration.id} · {integration.definitionFiles.join(', ')}
          </div>
          {integration.description ? <p>{integration.description}</p> : null}
        </div>
        <span className={`status status-${status}`} role="status" aria-label={`${integration.id} is ${status}`}>
          {status}
        </span>
        <div className="integration-actions">
          {active ? (
            <>
              <button type="button" onClick={() => void runAction('restart', integration.id)} disabled={busy} aria-label={`Restart ${integration.id}`}>
                Restart
              </button>
              <button type="button" onClick={() => void runAction('stop', integration.id)} disabled={busy} aria-label={`Stop ${integration.id}`}>
                Stop
              </button>
            </>
          ) : (
            <button type="button" className="primary" onClick={() => void runAction('start', integration.id)} aria-label={`Run ${integration.id}`}>
              Run
            </button>
          )}
        </div>
      </div>
      {run?.reason ? <p className={status === 'failed' ? 'reason error' : 'reason warning'}>{run.reason}</p> : null}
      {run && run.problems.length > 0 ? <RunProblems problems={run.problems} /> : null}
      {run && run.routes.length > 0 ? <RouteList routes={run.routes} /> : null}
    </li>
  );
}
