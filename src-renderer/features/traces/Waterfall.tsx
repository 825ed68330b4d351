import type { RunCall, RunDetail, RunStep } from '../../../shared/trace-types.ts';

/**
 * A run's steps as a waterfall: one row per step in reading order (nested steps indented), a bar
 * at its start and as long as it took, and under a step the calls it made. Failed steps are
 * highlighted with their error. Index -1 is the run as a whole.
 */
export function Waterfall({ run, selected, onSelect }: { run: RunDetail; selected: number | undefined; onSelect(index: number): void }) {
  const start = run.summary.startedAt;
  const total = Math.max(run.summary.durationMs, ...run.steps.map((s) => s.startedAt - start + s.durationMs), 0.001);
  const bar = (startedAt: number, durationMs: number) => {
    const left = Math.min(99, Math.max(0, ((startedAt - start) / total) * 100));
    return { left: `${left}%`, width: `${Math.max(0.6, Math.min(100 - left, (durationMs / total) * 100))}%` };
  };
  return (
    <div className="waterfall" role="list" aria-label="Steps">
      <WaterfallRow
        label="whole run"
        detail={`${run.summary.flow} · ${run.steps.length} ${run.steps.length === 1 ? 'step' : 'steps'}`}
        outcome={run.summary.outcome}
        durationMs={run.summary.durationMs}
        bar={{ left: '0%', width: '100%' }}
        selected={selected === -1}
        onClick={() => onSelect(-1)}
        depth={0}
        kind="run"
      />
      {run.steps.map((s) => (
        <div key={s.index} role="none">
          <WaterfallRow
            label={s.name ?? s.block ?? s.step}
            detail={s.name ? (s.block ?? '') : ''}
            outcome={s.outcome}
            durationMs={s.durationMs}
            bar={bar(s.startedAt, s.durationMs)}
            selected={selected === s.index}
            onClick={() => onSelect(s.index)}
            depth={s.depth}
            kind={s.category}
            error={s.error}
            step={s}
          />
          {s.calls.map((c, i) => (
            <div
              key={i}
              className={`waterfall-call${callFailed(c) ? ' call-bad' : ''}`}
              role="listitem"
              data-call-status={c.status}
              data-outcome={callFailed(c) ? 'failed' : 'completed'}
              style={{ paddingLeft: 22 + (s.depth + 1) * 16 }}
            >
              <span className="waterfall-label" title={`${c.name}${c.status !== undefined ? ` → ${c.status}` : ''}${c.error ? ` · ${c.error}` : ''}`}>
                <span className="call-kind">{c.kind}</span> {c.name}
                {c.status !== undefined ? <strong> {c.status}</strong> : null}
                {typeof c.detail?.retries === 'number' && c.detail.retries > 0 ? <span className="warning"> · {c.detail.retries} retr{c.detail.retries === 1 ? 'y' : 'ies'}</span> : null}
              </span>
              <span className="waterfall-track">
                <span className={`waterfall-bar call${callFailed(c) ? ' outcome-failed' : ''}`} style={bar(c.startedAt, c.durationMs)} />
              </span>
              <span className="waterfall-ms">{c.durationMs.toFixed(1)} ms</span>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

interface RowProps {
  label: string;
  detail: string;
  outcome: string;
  durationMs: number;
  bar: { left: string; width: string };
  selected: boolean;
  onClick(): void;
  depth: number;
  kind: RunStep['category'] | 'run';
  error?: string;
  step?: RunStep;
}

function WaterfallRow({ label, detail, outcome, durationMs, bar, selected, onClick, depth, kind, error, step }: RowProps) {
  return (
    <button
      type="button"
      role="listitem"
      className={`waterfall-row outcome-${outcome} kind-${kind}${selected ? ' selected' : ''}`}
      aria-current={selected ? 'true' : undefined}
      data-block={step?.block}
      data-step={step?.step}
      onClick={onClick}
    >
      <span className="waterfall-label" style={{ paddingLeft: depth * 16 }} title={[label, detail, error].filter(Boolean).join(' · ')}>
        <span className="waterfall-name">{label}</span>
        {detail ? <span className="muted"> {detail}</span> : null}
        {kind === 'platform' ? <span className="tag">platform</span> : kind === 'http' ? <span className="tag">http</span> : null}
        {error ? <span className="waterfall-error">{error}</span> : null}
      </span>
      <span className="waterfall-track">
        <span className={`waterfall-bar outcome-${outcome}`} style={bar} />
      </span>
      <span className="waterfall-ms">{durationMs.toFixed(2)} ms</span>
    </button>
  );
}

/** An outbound call that errored or was answered 4xx/5xx is a failure, whatever the step made of it. */
export function callFailed(c: RunCall): boolean {
  return c.error !== undefined || (c.status ?? 0) >= 400;
}
