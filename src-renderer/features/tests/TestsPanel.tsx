import { useCallback, useEffect, useState } from 'react';
import type { FlowTestFileView, FlowTestResultView, FlowTestSelection } from '../../../shared/flow-test-types.ts';
import { flowTestCalls } from '../../api/flow-test-calls.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { FailureView } from './FailureView.tsx';
import './tests.css';

/**
 * The flow tests (`*.test.yaml`) of an integration: run one or all (each on a fresh embedded
 * platform, as `flow-studio test` does), see failures with their diff and the step where the run
 * diverged, open the failing run's trace, and the coverage the run reached.
 */
export function TestsPanel() {
  const integrations = useStudio((s) => s.integrations);
  const chosen = useStudio((s) => s.testsIntegration);
  const setChosen = useStudio((s) => s.setTestsIntegration);
  const integration = chosen ?? integrations[0]?.id;
  const lastRun = useStudio((s) => (integration ? s.testRuns[integration] : undefined));
  const finished = useStudio((s) => s.testRunFinished);
  const [files, setFiles] = useState<FlowTestFileView[] | undefined>(undefined);
  const [running, setRunning] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const reload = useCallback(() => {
    if (!integration) return;
    flowTestCalls.list(integration).then(setFiles, (err: unknown) => setError(String(err)));
  }, [integration]);
  useEffect(() => {
    setFiles(undefined);
    reload();
  }, [reload]);

  const run = (selection: FlowTestSelection, label: string) => {
    setRunning(label);
    setError(undefined);
    flowTestCalls
      .run(selection)
      .then(finished, (err: unknown) => setError(err instanceof Error ? err.message : String(err)))
      .finally(() => setRunning(undefined));
  };
  const resultOf = (file: string, name: string): FlowTestResultView | undefined => lastRun?.results.find((r) => r.file === file && r.name === name);
  const passed = lastRun?.results.filter((r) => r.passed).length ?? 0;
  const failed = (lastRun?.results.length ?? 0) - passed;
  // A file that does not load ran none of its tests: left out, the summary read green while
  // `flow-studio test` fails the same suite.
  const notLoaded = lastRun?.broken.length ?? 0;
  const cov = lastRun?.coverage;

  return (
    <section className="panel tests-panel" aria-labelledby="panel-title">
      <PanelHeader title="Tests">
        <select aria-label="Integration" value={integration ?? ''} onChange={(e) => setChosen(e.target.value)}>
          {integrations.map((i) => (
            <option key={i.id} value={i.id}>
              {i.name}
            </option>
          ))}
        </select>
        <button type="button" disabled={!integration || running !== undefined} onClick={() => integration && run({ integration }, 'all')}>
          {running === 'all' ? 'Running…' : 'Run all'}
        </button>
        <button type="button" onClick={reload}>
          Reload
        </button>
      </PanelHeader>
      {error ? (
        <p className="step-error" role="alert">
          {error}
        </p>
      ) : null}
      {lastRun ? (
        <p className="tests-summary" role="status">
          <strong className={failed || notLoaded ? 'error' : 'ok'}>
            {passed} passed, {failed} failed
            {notLoaded ? `, ${notLoaded} test file${notLoaded === 1 ? '' : 's'} not loaded` : ''}
          </strong>{' '}
          <span className="muted">({lastRun.durationMs} ms)</span>
          {cov ? (
            <span className="muted">
              {' '}
              · coverage: steps {cov.steps.filter((s) => s.hits > 0).length}/{cov.steps.length}, branches {cov.branches.filter((b) => b.hits > 0).length}/{cov.branches.length} ·{' '}
              <button type="button" className="link" onClick={() => useStudio.setState({ panel: 'flows' })}>
                show on the flow graph
              </button>
            </span>
          ) : null}
        </p>
      ) : null}
      {files === undefined ? (
        <p className="muted">Loading tests…</p>
      ) : files.length === 0 ? (
        <EmptyState title="No tests yet">Add a &lt;name&gt;.test.yaml beside the definitions (docs/testing.md), or open a run in Traces and choose “Save as test…”.</EmptyState>
      ) : (
        files.map((f) => (
          <section key={f.file} className="test-file" aria-label={`Tests in ${f.file}`}>
            <h3>
              {f.file}{' '}
              <button type="button" disabled={running !== undefined || f.problems.length > 0} onClick={() => integration && run({ integration, file: f.file }, f.file)}>
                Run file
              </button>
            </h3>
            {f.problems.map((p, i) => (
              <p key={i} className="step-error">
                {p.file}:{p.line}:{p.col}
                {p.path ? ` ${p.path}` : ''}: {p.message}
              </p>
            ))}
            <ul className="test-list">
              {f.tests.map((t) => {
                const r = resultOf(f.file, t.name);
                return (
                  <li key={t.name} className={r ? (r.passed ? 'test-pass' : 'test-fail') : ''} aria-label={`Test ${t.name}`}>
                    <div className="test-row">
                      <span className="test-mark">{r ? (r.passed ? '✓' : '✗') : '·'}</span>
                      <span className="test-name">{t.name}</span>
                      <span className="muted">{t.flow}</span>
                      {r ? <span className="muted">{r.durationMs} ms</span> : null}
                      <button type="button" disabled={running !== undefined} onClick={() => integration && run({ integration, file: f.file, name: t.name }, `${f.file}:${t.name}`)}>
                        {running === `${f.file}:${t.name}` ? 'Running…' : 'Run'}
                      </button>
                      {r?.runId ? (
                        <button type="button" className="link" onClick={() => useStudio.getState().showRun(r.runId!)}>
                          {r.passed ? 'Trace' : 'Trace of the failing run'}
                        </button>
                      ) : null}
                    </div>
                    {r && !r.passed ? r.failures.map((x, i) => <FailureView key={i} failure={x} />) : null}
                  </li>
                );
              })}
            </ul>
          </section>
        ))
      )}
      {lastRun?.broken.map((b) => (
        <p key={b.file} className="step-error">
          {b.problems.join('\n')}
        </p>
      ))}
    </section>
  );
}
