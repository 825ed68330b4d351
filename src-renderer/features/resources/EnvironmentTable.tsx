import type { ReactNode } from 'react';
import type { EnvironmentVariable, EnvironmentView, ValueSource } from '../../../shared/resource-types.ts';

/**
 * Every declared variable with the source its value comes from and every source it overrides,
 * strongest first. Secret values never reach the window; they show as masked.
 */
export function EnvironmentTable({ view, binding }: { view: EnvironmentView; binding?: (v: EnvironmentVariable) => ReactNode }) {
  return (
    <>
      {view.problems.map((p) => (
        <p key={p} className="rs-message rs-error" role="alert">
          {p}
        </p>
      ))}
      {view.variables.length === 0 ? (
        <p className="muted">No variables are declared (a definition declares them under <code>env:</code>).</p>
      ) : (
        <table className="rs-table" aria-label="Environment">
          <thead>
            <tr>
              <th>Variable</th>
              <th>Effective value</th>
              <th>Sources, strongest first</th>
              {binding ? <th>Binding</th> : null}
            </tr>
          </thead>
          <tbody>
            {view.variables.map((v) => (
              <tr key={v.name} aria-label={v.name} className={v.problem ? 'rs-flagged' : undefined}>
                <td>
                  <code>{v.name}</code>
                  {v.required ? <span className="rs-badge required">required</span> : null}
                  {v.secret ? <span className="rs-badge secret">secret</span> : null}
                  <div className="rs-hint muted">
                    {v.declaredIn}
                    {v.line ? `:${v.line}` : ''}
                    {v.description ? ` — ${v.description}` : ''}
                  </div>
                </td>
                <td data-field="effective">
                  <Effective v={v} />
                  {v.problem ? (
                    <div className="rs-problem" role="alert">
                      {v.problem}
                    </div>
                  ) : null}
                </td>
                <td>
                  <ul className="rs-sources" aria-label={`Sources of ${v.name}`}>
                    {v.sources.map((s, i) => (
                      <li key={i} className={`rs-source ${s.wins ? 'winning' : 'overridden'}`}>
                        {s.wins ? <span className="rs-badge wins">wins</span> : null} {sourceLabel(s)}
                        {s.kind !== 'secret' ? (
                          <>
                            {' '}
                            <SourceValue s={s} />
                          </>
                        ) : null}
                        {!s.gives ? <span className="muted"> (empty: gives nothing)</span> : null}
                      </li>
                    ))}
                  </ul>
                </td>
                {binding ? <td>{binding(v)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Effective({ v }: { v: EnvironmentVariable }) {
  const winner = v.sources.find((s) => s.wins);
  if (!winner) return <span className="rs-error">missing</span>;
  return (
    <span>
      {winner.kind === 'secret' ? <span className="rs-masked">value of secret {winner.secret}</span> : <SourceValue s={winner} />}
      <div className="rs-hint muted" data-field="source">
        from {sourceLabel(winner)}
      </div>
    </span>
  );
}

function SourceValue({ s }: { s: ValueSource }) {
  if (s.masked) return <span className="rs-masked">•••••• (secret)</span>;
  if (s.value === undefined) return null;
  return <code className="rs-source-value">{JSON.stringify(s.value.length > 200 ? `${s.value.slice(0, 200)}…` : s.value)}</code>;
}

export function sourceLabel(s: ValueSource): string {
  switch (s.kind) {
    case 'binding':
      return 'binding';
    case 'secret':
      return `secret reference ${s.secret}${s.secretExists ? '' : ' (no such secret)'}`;
    case 'managed':
      return 'managed by the local orchestrator';
    case 'process':
      return "the studio's environment";
    case 'env-resource':
      return `env resource ${s.file}:${s.line}`;
    case 'default':
      return 'declared default';
  }
}
