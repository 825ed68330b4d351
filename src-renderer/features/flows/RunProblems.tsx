import type { RunProblem } from '../../../shared/studio-api.ts';

/** Load problems and port conflicts, each with its file:line:col and setting path. */
export function RunProblems({ problems }: { problems: RunProblem[] }) {
  return (
    <ul className="problems" aria-label="Problems">
      {problems.map((p, i) => (
        <li key={i}>
          <code>
            {p.file}:{p.line}:{p.col}
          </code>{' '}
          {p.path ? <code className="muted">{p.path}:</code> : null} {p.message}
        </li>
      ))}
    </ul>
  );
}
