import type { RunLink } from '../../shared/platform-views.ts';
import { useStudio } from '../store/studio-store.ts';

/** Opens the run in the Traces panel. */
export function RunLinkButton({ run }: { run: RunLink }) {
  const showRun = useStudio((s) => s.showRun);
  return (
    <button
      type="button"
      className={`pv-run outcome-${run.outcome}`}
      aria-label={`Open run ${run.runId} of flow ${run.flow} (${run.outcome})`}
      title={`${run.integration} · ${run.flow} · ${run.runId}`}
      onClick={(e) => {
        e.stopPropagation();
        showRun(run.runId);
      }}
    >
      {run.flow} · {run.outcome}
    </button>
  );
}
