import type { OutcomeCounts } from '../run-stats.ts';

/** Passed, failed and dropped message counts of a node; nothing before the first message. */
export function Counts({ counts }: { counts: OutcomeCounts | undefined }) {
  if (!counts) return null;
  return (
    <span className="node-counts" aria-hidden="true">
      <span className="count-ok" title="passed">
        ✓{counts.completed}
      </span>
      {counts.failed ? (
        <span className="count-failed" title="failed">
          ✗{counts.failed}
        </span>
      ) : null}
      {counts.dropped ? (
        <span className="count-dropped" title="dropped">
          ⊘{counts.dropped}
        </span>
      ) : null}
    </span>
  );
}
