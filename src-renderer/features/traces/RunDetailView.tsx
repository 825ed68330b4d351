import { replayUnderDebugger } from '../debugger/debugger-actions.ts';
import { useEffect, useState } from 'react';
import type { RunDetail, RunStep } from '../../../shared/trace-types.ts';
import { innermostFailedStep } from '../../../shared/step-paths.ts';
import { traceQueries } from '../../api/trace-queries.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime } from '../../shell/format.ts';
import { ForkLink, SaveAsTest } from './SaveAsTest.tsx';
import { RunOriginBadge, VersionBadge } from './RunList.tsx';
import { RejectionBanner, refusedBeforeFlow } from './RejectionBanner.tsx';
import { StepInspector } from './StepInspector.tsx';
import { Waterfall } from './Waterfall.tsx';
import { JsonTree } from './JsonTree.tsx';

/** One run: what started it, its waterfall, and the selected step's messages. */
export function RunDetailView({ runId }: { runId: string }) {
  const [run, setRun] = useState<RunDetail | null | undefined>(undefined);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const showRunLogs = useStudio((s) => s.showRunLogs);
  const picks = useStudio((s) => s.comparePicks);
  const togglePick = useStudio((s) => s.toggleComparePick);
  const selectRun = useStudio((s) => s.selectRun);

  useEffect(() => {
    let live = true;
    setRun(undefined);
    setSelected(undefined);
    traceQueries.detail(runId).then(
      (d) => {
        if (!live) return;
        setRun(d);
        // Open on the failed step, if any: that is what a person looks for first.
        const failed = d ? innermostFailedStep(d.steps) : undefined;
        setSelected(failed ? failed.index : undefined);
      },
      () => live && setRun(null),
    );
    return () => {
      live = false;
    };
  }, [runId]);

  if (run === undefined) return <p className="muted">Loading run {runId}…</p>;
  if (run === null) return <p className="muted">Run {runId} is no longer stored.</p>;
  const s = run.summary;
  const step: RunStep | undefined = selected === -1 ? wholeRun(run) : run.steps.find((x) => x.index === selected);
  return (
    <section className="run-detail" aria-label={`Run ${s.runId}`}>
      <header className="run-head">
        <h3>
          {s.flow} <span className={`outcome-badge outcome-${s.outcome}`}>{s.outcome}</span>
          {s.status !== undefined ? <span className={`status-code status-${Math.floor(s.status / 100)}xx`}>{s.status}</span> : null}
          {s.test !== undefined ? <RunOriginBadge run={s} /> : null}
          {s.version ? <VersionBadge version={s.version} /> : null}
        </h3>
        <div className="muted run-meta">
          {s.method ? `${s.method} ` : ''}
          {s.path ?? s.route ?? ''} · {clockTime(s.startedAt)} · {s.durationMs.toFixed(2)} ms · run {s.runId} · correlation {s.correlationId}
          {s.version ? ` · served by working copy v${s.version.generation} (${s.version.digest})` : ''}
        </div>
        {s.traceId ? (
          <div className="muted run-trace">
            trace <code className="trace-id" title="W3C trace id: search it in your tracing backend">{s.traceId}</code>
            {run.traceRuns?.length ? (
              <span className="trace-runs" aria-label="Other runs of this trace">
                {' · also in this trace: '}
                {run.traceRuns.map((r) => (
                  <button key={r.runId} type="button" className="link" onClick={() => selectRun(r.runId)} title={`run ${r.runId}, ${r.outcome}`}>
                    {r.integration !== s.integration ? `${r.integration}/` : ''}
                    {r.flow} <span className={`outcome-badge outcome-${r.outcome}`}>{r.outcome}</span>
                  </button>
                ))}
              </span>
            ) : null}
          </div>
        ) : null}
        {s.error && !refusedBeforeFlow(run) ? <p className="step-error">{s.error}</p> : null}
        <RejectionBanner run={run} />
        {s.captureId === undefined && run.output ? (
          // A re-run or a test has no captured request: its answer is the message it ended with.
          <details className="run-answer" open={s.forkedFrom !== undefined}>
            <summary>
              What it answered{typeof (run.output.vars as { httpStatus?: unknown } | null)?.httpStatus === 'number' ? ` (${(run.output.vars as { httpStatus: number }).httpStatus})` : ''}
            </summary>
            <JsonTree label="body it ended with" value={run.output.body} />
          </details>
        ) : null}
        <div className="run-links">
          {s.captureId !== undefined ? (
            <button type="button" className="link" onClick={() => useStudio.setState({ panel: 'requests', requestsTab: 'captures', openCapture: s.captureId })}>
              Captured request #{s.captureId}
            </button>
          ) : null}
          <button type="button" className="link" onClick={() => showRunLogs(s.runId)}>
            Log lines
          </button>
          <label className="pick">
            <input type="checkbox" checked={picks.includes(s.runId)} onChange={() => togglePick(s.runId)} /> Pick to compare
          </label>
          <ForkLink run={s} />
          {run.snapshots ? <SaveAsTest key={s.runId} run={s} /> : null}
          {run.snapshots ? (
            <button type="button" onClick={() => void replayUnderDebugger(s.runId)} title="Run it again with its recorded input and outbound answers, stopping at your breakpoints">
              Replay in debugger
            </button>
          ) : null}
        </div>
      </header>
      <Waterfall run={run} selected={selected} onSelect={setSelected} />
      {step ? <StepInspector key={`${runId}:${step.index}`} runId={runId} step={step} snapshots={run.snapshots} /> : <p className="muted">Select a step to see the message before and after it.</p>}
    </section>
  );
}

/** The run as a step: what came in and what came out. */
function wholeRun(run: RunDetail): RunStep {
  return {
    index: -1,
    step: `flows.${run.summary.flow}`,
    name: 'whole run',
    block: run.summary.flow,
    depth: 0,
    category: 'block',
    startedAt: run.summary.startedAt,
    durationMs: run.summary.durationMs,
    outcome: run.summary.outcome,
    error: run.summary.error,
    input: run.input,
    output: run.output,
    calls: [],
  };
}
