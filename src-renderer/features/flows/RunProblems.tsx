import type { RunProblem } from '../../../shared/studio-api.ts';
import { useStudio } from '../../store/studio-store.ts';

/** `required variable NOTES_TOKEN has no value…`: the variable a run needs bound. */
const UNBOUND = /^required variable (\S+) has no value/;

/**
 * Load problems and port conflicts, each with its file:line:col and setting path; a required
 * variable without a value links to where it is bound (Resources → Environment).
 */
export function RunProblems({ problems, integration }: { problems: RunProblem[]; integration: string }) {
  return (
    <ul className="problems" aria-label="Problems">
      {problems.map((p, i) => {
        const unbound = UNBOUND.exec(p.message)?.[1];
        return (
          <li key={i}>
            <code>
              {p.file}:{p.line}:{p.col}
            </code>{' '}
            {p.path ? <code className="muted">{p.path}:</code> : null} {p.message}
            {unbound ? (
              <>
                {' '}
                <button
                  type="button"
                  className="link bind-link"
                  onClick={() => useStudio.setState({ panel: 'resources', resourcesIntegration: integration, resourcesTab: 'environment', openResource: undefined })}
                >
                  Bind {unbound}…
                </button>
              </>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
