import { useState, type KeyboardEvent } from 'react';
import type { IntegrationSummary, RunState } from '../../../../shared/studio-api.ts';
import { runAction } from '../../../api/run-actions.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { RouteList } from '../RouteList.tsx';
import { RunProblems } from '../RunProblems.tsx';
import { ServingVersion } from './ServingVersion.tsx';
import { Sparkline } from '../../charts/Sparkline.tsx';
import { createFile } from './file-actions.ts';
import { FileRow } from './FileRow.tsx';
import { PortOffer } from './PortOffer.tsx';

/**
 * An integration with one-click Run, Stop and Restart, its run rate over the last minutes, its
 * routes, its definition files and its flow tests.
 */
export function IntegrationCard({ integration, activity }: { integration: IntegrationSummary; activity?: { perSecond: number[]; errors: number[] } }) {
  const run = useStudio((s) => s.runs[integration.id]) as RunState | undefined;
  const [adding, setAdding] = useState(false);
  const known = useStudio((s) => s.runsKnown);
  // Before the first run-state snapshot, "stopped" would be a guess, and a Run button offered on it
  // could start an integration that is already running.
  const status = run?.status ?? (known ? 'stopped' : 'checking');
  const busy = status === 'starting';
  const active = status === 'running' || status === 'starting';
  const onNewFile = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'Escape') setAdding(false);
    if (e.key === 'Enter' && e.currentTarget.value.trim()) {
      const name = e.currentTarget.value;
      setAdding(false);
      void createFile(integration.id, name);
    }
  };
  return (
    <li className="integration" aria-label={integration.name} data-status={status}>
      <div className="integration-head">
        <div>
          <h3>{integration.name}</h3>
          {integration.name !== integration.id ? <div className="muted">{integration.id}</div> : null}
        </div>
        <span className={`status status-${status}`} role="status" aria-label={`${integration.id} is ${status}`}>
          {status}
        </span>
      </div>
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
        ) : status === 'checking' ? null : (
          <button type="button" className="primary" onClick={() => void runAction('start', integration.id)} aria-label={`Run ${integration.id}`}>
            Run
          </button>
        )}
        <button type="button" onClick={() => setAdding(true)} aria-label={`New file in ${integration.id}`} title="New definition file (name.test.yaml: a flow test)">
          + File
        </button>
      </div>
      {activity && activity.perSecond.some((v) => v > 0) ? (
        <button type="button" className="link spark-link" onClick={() => useStudio.setState({ panel: 'traces', tracesView: 'charts' })} title="Open the charts">
          <Sparkline perSecond={activity.perSecond} errors={activity.errors} label={`${integration.id} runs per second`} />
        </button>
      ) : null}
      {integration.description ? <p className="muted">{integration.description}</p> : null}
      {integration.needs ? (
        <p className="needs" aria-label={`What ${integration.id} needs`}>
          <strong>Needs</strong> {integration.needs}
        </p>
      ) : null}
      <ul className="file-list" aria-label={`Files of ${integration.id}`}>
        {integration.definitionFiles.map((f) => (
          <FileRow key={f} file={{ integration: integration.id, file: f }} />
        ))}
        {adding ? (
          <li className="file-row">
            <input
              className="file-input"
              aria-label={`New file name in ${integration.id}`}
              placeholder="name.yaml"
              autoFocus
              onKeyDown={onNewFile}
              onBlur={() => setAdding(false)}
            />
          </li>
        ) : null}
      </ul>
      {integration.testFiles.length > 0 ? (
        <>
          <h4 className="file-group">Tests</h4>
          <ul className="file-list test-files" aria-label={`Tests of ${integration.id}`}>
            {integration.testFiles.map((f) => (
              <FileRow key={f} file={{ integration: integration.id, file: f }} test />
            ))}
          </ul>
        </>
      ) : null}
      {run?.serving ? <ServingVersion serving={run.serving} integration={integration.id} /> : null}
      {run?.reason ? <p className={status === 'failed' ? 'reason error' : 'reason warning'}>{run.reason}</p> : null}
      {run?.portClash ? <PortOffer integration={integration.id} clash={run.portClash} /> : null}
      {run && run.problems.length > 0 ? <RunProblems problems={run.problems} integration={integration.id} /> : null}
      {run && run.routes.length > 0 ? <RouteList routes={run.routes} /> : null}
    </li>
  );
}
