import { useEffect, useState } from 'react';
import type { ComparedStep, RunComparison, RunStep } from '../../../shared/trace-types.ts';
import { traceQueries } from '../../api/trace-queries.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime } from '../../shell/format.ts';
import { MessageDiff } from './MessageDiff.tsx';
import { FileDiffView } from '../resources/TagDiffView.tsx';
import type { DefinitionChange } from '../../../shared/trace-types.ts';

/**
 * Two runs side by side, step by step: which path each took (a step only one run reached shows
 * on its side alone) and, for a step both took, how the message after it differs.
 */
export function CompareView({ a, b }: { a: string; b: string }) {
  const [cmp, setCmp] = useState<RunComparison | string | undefined>(undefined);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const setComparing = useStudio((s) => s.setComparing);
  useEffect(() => {
    let live = true;
    setCmp(undefined);
    traceQueries.compare(a, b).then(
      (c) => {
        if (!live) return;
        setCmp(c);
        setOpen(c.steps.find((s) => !s.same)?.step);
      },
      (err: unknown) => live && setCmp(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [a, b]);

  if (cmp === undefined) return <p className="muted">Comparing…</p>;
  if (typeof cmp === 'string') return <p className="error">{cmp}</p>;
  const changed = cmp.steps.filter((s) => !s.same).length;
  return (
    <section className="compare" aria-label="Compare runs">
      <header className="run-head">
        <h3>
          {/* Runs of two flows are comparable too; naming only A's flow read as if both were its. */}
          {cmp.a.flow === cmp.b.flow ? `Compare ${cmp.a.flow} runs` : `Compare ${cmp.a.flow} with ${cmp.b.flow}`}
          {cmp.definitions ? (
            <span className="version-change" aria-label="Definition versions">
              v{cmp.definitions.a.generation} → v{cmp.definitions.b.generation}
            </span>
          ) : cmp.a.version ? (
            <span className="muted version-same"> both v{cmp.a.version.generation}</span>
          ) : null}{' '}
          <button type="button" className="link" onClick={() => setComparing(false)}>
            close
          </button>
        </h3>
        <div className="compare-sides muted">
          <span>
            A: {cmp.a.runId} · {clockTime(cmp.a.startedAt)} · {cmp.a.outcome}
            {cmp.a.status !== undefined ? ` · ${cmp.a.status}` : ''}
          </span>
          <span>
            B: {cmp.b.runId} · {clockTime(cmp.b.startedAt)} · {cmp.b.outcome}
            {cmp.b.status !== undefined ? ` · ${cmp.b.status}` : ''}
          </span>
        </div>
        <p>{changed === 0 ? 'Both runs took the same steps with the same results.' : `${changed} step${changed === 1 ? '' : 's'} differ.`}</p>
      </header>
      <div className={cmp.definitions ? 'compare-with-definitions' : undefined}>
      <div className="compare-table" role="table" aria-label="Steps of both runs">
        <div className="compare-row compare-header" role="row">
          <span role="columnheader">Step</span>
          <span role="columnheader">A</span>
          <span role="columnheader">B</span>
        </div>
        {cmp.steps.map((row) => (
          <div key={row.step} role="rowgroup">
            <button
              type="button"
              role="row"
              className={`compare-row ${row.same ? 'same' : 'differs'}${open === row.step ? ' selected' : ''}`}
              data-step={row.step}
              aria-label={`${row.name ?? row.block ?? row.step}: ${row.same ? 'same' : 'differs'}`}
              onClick={() => setOpen(open === row.step ? undefined : row.step)}
            >
              <span role="cell" style={{ paddingLeft: row.depth * 14 }}>
                {row.name ?? row.block} <span className="muted">{row.same ? '' : '≠'}</span>
              </span>
              <Side step={row.a} />
              <Side step={row.b} />
            </button>
            {open === row.step ? <RowDiff row={row} /> : null}
          </div>
        ))}
      </div>
      {cmp.definitions ? <DefinitionDiff change={cmp.definitions} /> : null}
      </div>
    </section>
  );
}

/** How the definition changed between the versions that served A and B, beside the run diff. */
function DefinitionDiff({ change }: { change: DefinitionChange }) {
  const from = `v${change.a.generation}`;
  const to = `v${change.b.generation}`;
  return (
    <section className="definition-diff" aria-label={`Definition ${from} → ${to}`}>
      <h4>
        Definition {from} → {to} <span className="muted">({change.a.digest} → {change.b.digest})</span>
      </h4>
      {change.note ? <p className="muted">{change.note}</p> : null}
      {!change.note && change.files.length === 0 ? <p className="muted">Only files outside the definitions changed.</p> : null}
      {change.files.map((f) => (
        <FileDiffView key={f.path} file={f} from={from} to={to} />
      ))}
    </section>
  );
}

function Side({ step }: { step: RunStep | undefined }) {
  if (!step) return <span role="cell" className="muted">not taken</span>;
  return (
    <span role="cell" className={`outcome-${step.outcome}`}>
      <span className="outcome">{step.outcome}</span> · {step.durationMs.toFixed(2)} ms{step.error ? <span className="error"> · {step.error}</span> : null}
    </span>
  );
}

function RowDiff({ row }: { row: ComparedStep }) {
  if (!row.a || !row.b) return <p className="compare-note muted">Only run {row.a ? 'A' : 'B'} took this step.</p>;
  return (
    <div className="compare-note">
      <MessageDiff before={row.a.output ?? row.a.input} after={row.b.output ?? row.b.input} label={`Message after ${row.name ?? row.block}: A → B`} />
    </div>
  );
}
