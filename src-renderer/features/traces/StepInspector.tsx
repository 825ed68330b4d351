import { PauseRecord } from '../debugger/PauseRecord.tsx';
import { useState } from 'react';
import type { MessageSnapshot, RunStep } from '../../../shared/trace-types.ts';
import { traceQueries } from '../../api/trace-queries.ts';
import { changedPaths, diffValues } from './json-diff.ts';
import { HttpExchange } from './HttpExchange.tsx';
import { JsonTree } from './JsonTree.tsx';
import { callFailed } from './Waterfall.tsx';
import { MessageDiff } from './MessageDiff.tsx';
import { RerunFromStep } from './RerunFromStep.tsx';

type Tab = 'diff' | 'before' | 'after';

/**
 * One step of a run: its error, the calls it made, and the message before and after it, side by
 * side or as a list of what changed. Values cut for display load in full on demand.
 */
export function StepInspector({ runId, step, snapshots }: { runId: string; step: RunStep; snapshots: boolean }) {
  const [tab, setTab] = useState<Tab>('diff');
  const loader = (side: 'input' | 'output') => (path: Array<string | number>) => traceQueries.value({ runId, step: step.index, side, path });
  return (
    <section className="step-inspector" aria-label={`Step ${step.name ?? step.block ?? step.step}`}>
      <header className="step-inspector-head">
        <h3>{step.name ?? step.block}</h3>
        <code className="muted">{step.step}</code>
        <span className={`outcome-badge outcome-${step.outcome}`}>{step.outcome}</span>
        <span className="muted">{step.durationMs.toFixed(2)} ms</span>
      </header>
      {snapshots && step.input ? <RerunFromStep runId={runId} step={step} /> : null}
      {step.error ? (
        <p className="step-error" role="alert">
          {step.error}
        </p>
      ) : null}
      {step.calls.length > 0 ? (
        <ul className="call-list" aria-label="Calls">
          {step.calls.map((c, i) => (
            <li key={i} className={callFailed(c) ? 'call-bad' : ''}>
              <span className="call-kind">{c.kind}</span> <code>{c.name}</code> {c.status !== undefined ? <strong>{c.status}</strong> : null}{' '}
              <span className="muted">{c.durationMs.toFixed(1)} ms</span>
              {typeof c.detail?.retries === 'number' && c.detail.retries > 0 ? <span className="warning"> · {c.detail.retries} retr{c.detail.retries === 1 ? 'y' : 'ies'}</span> : null}
              {c.detail?.cached ? <span className="muted"> · from cache</span> : null}
              {c.error ? <span className="error"> · {c.error}</span> : null}
              {c.kind === 'http' ? <HttpExchange call={c} /> : null}
              {c.kind === 'debug' ? <PauseRecord call={c} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {!snapshots ? (
        <p className="muted">This run happened while no studio window was open, so its messages were not recorded. Send it again to see them.</p>
      ) : (
        <>
          <div className="tabs" role="tablist" aria-label="Message view">
            {(['diff', 'before', 'after'] as const).map((t) => (
              <button key={t} type="button" role="tab" aria-selected={tab === t} className="tab" onClick={() => setTab(t)}>
                {t === 'diff' ? 'Changes' : t === 'before' ? 'Before' : 'After'}
              </button>
            ))}
          </div>
          {tab === 'diff' && step.outcome === 'failed' && !step.output ? (
            <FailedStepChanges step={step} loadFull={loader('input')} />
          ) : tab === 'diff' ? (
            <MessageDiff before={step.input} after={step.output} label="Changes by this step" />
          ) : (
            <SideBySide step={step} show={tab} loaders={{ input: loader('input'), output: loader('output') }} />
          )}
        </>
      )}
    </section>
  );
}

/**
 * A failed step hands no message on, so there is nothing to diff: comparing its input with
 * nothing would list every variable as removed. Say that it failed, and show what it was given.
 */
function FailedStepChanges({ step, loadFull }: { step: RunStep; loadFull: (p: Array<string | number>) => Promise<unknown> }) {
  return (
    <div className="snapshot" aria-label="Changes by this step">
      <p className="step-failed-note">
        <strong>The step failed</strong> (the error is above), so it passed no message on and changed nothing. This is the message it was given:
      </p>
      {step.input ? (
        <>
          <h4>body</h4>
          <JsonTree label="body given to the failed step" value={step.input.body} loadFull={loadFull} />
          <h4>vars</h4>
          <JsonTree label="vars given to the failed step" value={step.input.vars} loadFull={loadFull} />
        </>
      ) : (
        <p className="muted">Its input was not recorded.</p>
      )}
    </div>
  );
}

function SideBySide({ step, show, loaders }: { step: RunStep; show: 'before' | 'after'; loaders: Record<'input' | 'output', (p: Array<string | number>) => Promise<unknown>> }) {
  const snap: MessageSnapshot | undefined = show === 'before' ? step.input : step.output;
  const side = show === 'before' ? 'input' : 'output';
  if (!snap) return <p className="muted">{show === 'after' && step.outcome === 'failed' ? 'The step failed; there is no message after it.' : 'Not recorded.'}</p>;
  // On the After view, what this step changed is highlighted.
  const changed = show === 'after' && step.input ? changedPaths([...diffValues(step.input.body, snap.body, ['body']), ...diffValues(step.input.vars, snap.vars, ['vars'])]) : undefined;
  return (
    <div className="snapshot" aria-label={`Message ${show} the step`}>
      <h4>body</h4>
      <JsonTree label={`body ${show}`} value={snap.body} loadFull={loaders[side]} changed={prefixed(changed, 'body')} />
      <h4>vars</h4>
      <JsonTree label={`vars ${show}`} value={snap.vars} loadFull={loaders[side]} changed={prefixed(changed, 'vars')} />
    </div>
  );
}

/** Highlight paths are rooted at `body`/`vars`; each tree starts below its root. */
function prefixed(changed: Set<string> | undefined, root: string): Set<string> | undefined {
  if (!changed) return undefined;
  const out = new Set<string>();
  for (const k of changed) {
    const path = JSON.parse(k) as Array<string | number>;
    if (path[0] === root) out.add(JSON.stringify(path.slice(1)));
  }
  return out;
}
