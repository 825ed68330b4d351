import { useEffect, useState } from 'react';
import type { SavedAssertion, SavedTestView } from '../../../shared/flow-test-types.ts';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { flowTestCalls } from '../../api/flow-test-calls.ts';
import { traceQueries } from '../../api/trace-queries.ts';
import { useStudio } from '../../store/studio-store.ts';
import '../tests/tests.css';

const ASSERTIONS: Array<{ id: SavedAssertion; label: string; http?: boolean }> = [
  { id: 'status', label: 'Status', http: true },
  { id: 'headers', label: 'Content-Type and Location', http: true },
  { id: 'body', label: 'Body' },
  { id: 'outcome', label: 'Outcome' },
  { id: 'vars', label: 'Final vars' },
  { id: 'calls', label: 'Outbound calls' },
];

/**
 * "Save as test": the run's input becomes a fixture, its outbound calls stubs, and what it
 * answered the expectation; the user names the test and picks which assertions to keep.
 */
export function SaveAsTest({ run }: { run: RunSummary }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [file, setFile] = useState(`${run.flow}.test.yaml`);
  const [keep, setKeep] = useState<SavedAssertion[]>(run.captureId !== undefined ? ['status', 'body'] : ['body', 'outcome']);
  const [result, setResult] = useState<SavedTestView | string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <button type="button" className="link" onClick={() => setOpen(true)}>
        Save as test…
      </button>
    );
  }
  const save = () => {
    setBusy(true);
    flowTestCalls
      .saveRun({ runId: run.runId, name, file, keep })
      .then(setResult, (err: unknown) => setResult(err instanceof Error ? err.message : String(err)))
      .finally(() => setBusy(false));
  };
  const http = run.captureId !== undefined;
  return (
    <form
      className="save-as-test"
      aria-label="Save run as test"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label>
        Test name <input value={name} onChange={(e) => setName(e.target.value)} placeholder="prices an order" autoFocus />
      </label>
      <label>
        File <input value={file} onChange={(e) => setFile(e.target.value)} />
      </label>
      <fieldset>
        <legend>Assertions to keep</legend>
        {ASSERTIONS.filter((a) => http || !a.http).map((a) => (
          <label key={a.id}>
            <input type="checkbox" checked={keep.includes(a.id)} onChange={() => setKeep((k) => (k.includes(a.id) ? k.filter((x) => x !== a.id) : [...k, a.id]))} /> {a.label}
          </label>
        ))}
      </fieldset>
      <p className="muted">The input is written as a fixture with credentials redacted; outbound calls become stubs answering with their recorded status and body.</p>
      <div className="row">
        <button type="submit" disabled={busy || name.trim() === ''}>
          Save test
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      {typeof result === 'string' ? (
        <p className="step-error" role="alert">
          {result}
        </p>
      ) : result ? (
        <p role="status">
          Saved “{result.name}” to {result.file}.{' '}
          <button type="button" className="link" onClick={() => useStudio.setState({ panel: 'tests', testsIntegration: result.integration })}>
            Open Tests
          </button>
        </p>
      ) : null}
    </form>
  );
}

/** For a re-run: where it forked from, and the one-click comparison with that run. */
export function ForkLink({ run }: { run: RunSummary }) {
  if (!run.forkedFrom) return null;
  const compare = () => useStudio.setState({ panel: 'traces', tracesView: 'runs', comparePicks: [run.forkedFrom!, run.runId], comparing: true });
  return (
    <span className="fork-link">
      Re-run of{' '}
      <button type="button" className="link" onClick={() => useStudio.getState().showRun(run.forkedFrom!)}>
        run {run.forkedFrom}
      </button>{' '}
      from <code>{run.forkedAt}</code> ·{' '}
      <button type="button" onClick={compare}>
        Compare with the original
      </button>
    </span>
  );
}

/** "Save as test…" on a captured request: the run it started, once that run is stored with its messages. */
export function SaveCaptureAsTest({ runId }: { runId: string }) {
  const [run, setRun] = useState<RunSummary | undefined>(undefined);
  useEffect(() => {
    let live = true;
    traceQueries.detail(runId).then(
      (d) => live && setRun(d?.snapshots ? d.summary : undefined),
      () => live && setRun(undefined),
    );
    return () => {
      live = false;
    };
  }, [runId]);
  return run ? <SaveAsTest key={run.runId} run={run} /> : null;
}
