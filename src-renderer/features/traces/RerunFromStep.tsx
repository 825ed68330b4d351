import { lazy, Suspense, useState } from 'react';
import type { RunStep } from '../../../shared/trace-types.ts';
import { flowTestCalls } from '../../api/flow-test-calls.ts';
import { traceQueries } from '../../api/trace-queries.ts';
import { useStudio } from '../../store/studio-store.ts';

const MessageEditorPane = lazy(() => import('./MessageEditorPane.tsx'));

/**
 * Any step of a flow can start a re-run: a top-level one (`flows.<flow>.steps[N]`), one of its
 * error chain, or one nested in a switch case or a lock (the rest of that branch runs first).
 */
export function canRerunFrom(step: RunStep): boolean {
  return /^flows\.[^.]+\.(steps|onError)\[\d+\]/.test(step.step);
}

/** Whether the step sits inside a block's nested steps (a switch case, a lock), not at the top of the flow. */
function nested(step: RunStep): boolean {
  return !/^flows\.[^.]+\.(steps|onError)\[\d+\]$/.test(step.step);
}

/**
 * "Re-run from here": the message that entered the step, editable as JSON with validation, runs
 * through the rest of the flow against the current definition; outbound HTTP can be answered from
 * the recorded calls. The new run opens, linked to this one.
 */
export function RerunFromStep({ runId, step }: { runId: string; step: RunStep }) {
  const [open, setOpen] = useState(false);
  const [initial, setInitial] = useState<string | undefined>(undefined);
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [stub, setStub] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  if (!canRerunFrom(step)) return null;
  const start = () => {
    setOpen(true);
    setError(undefined);
    // The whole message (values cut for display load in full) seeds the editor.
    Promise.all([
      traceQueries.value({ runId, step: step.index, side: 'input', path: ['body'] }),
      traceQueries.value({ runId, step: step.index, side: 'input', path: ['vars'] }),
    ]).then(
      ([body, vars]) => {
        const seeded = JSON.stringify({ body, vars }, null, 2);
        setInitial(seeded);
        setText(seeded);
      },
      (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
    );
  };
  const run = () => {
    let message: { body: unknown; vars: Record<string, unknown> };
    try {
      message = JSON.parse(text) as typeof message;
    } catch (err) {
      setError(`not JSON: ${(err as Error).message}`);
      return;
    }
    setBusy(true);
    setError(undefined);
    flowTestCalls
      .rerun({ runId, step: step.index, body: message.body, vars: message.vars, stubOutbound: stub })
      .then(
        (r) => useStudio.getState().showRun(r.runId),
        (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
      )
      .finally(() => setBusy(false));
  };
  if (!open) {
    return (
      <button type="button" onClick={start}>
        Re-run from here…
      </button>
    );
  }
  return (
    <div className="rerun-form" aria-label="Re-run from this step">
      <p className="muted">
        The message entering <code>{step.step}</code>; edit body and vars, then run {nested(step) ? 'the rest of its branch and then the rest of the flow' : 'the rest of the flow'} against
        the current definition.
      </p>
      {initial === undefined ? (
        <p className="muted">Loading the message…</p>
      ) : (
        <Suspense fallback={<p className="muted">Loading the editor…</p>}>
          <MessageEditorPane
            id={`${runId}-${step.index}`}
            initial={initial}
            onChange={(t, p) => {
              setText(t);
              setProblems(p);
            }}
          />
        </Suspense>
      )}
      {problems.length > 0 ? (
        <ul className="step-error" aria-label="Problems in the message">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <label>
        <input type="checkbox" checked={stub} onChange={(e) => setStub(e.target.checked)} /> Answer outbound HTTP from the recorded calls (nothing leaves the machine)
      </label>
      <div className="row">
        <button type="button" disabled={busy || initial === undefined || problems.length > 0} onClick={run}>
          {busy ? 'Running…' : 'Run from this step'}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {error ? (
        <p className="step-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
