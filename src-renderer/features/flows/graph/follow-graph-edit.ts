import type { CoverageView } from '../../../../shared/flow-test-types.ts';
import type { PathFollow } from '../../../../shared/flow-edits/index.ts';
import type { FlowRunStats } from '../run-stats.ts';

/**
 * Run counts, the last message's path and the tests' coverage are keyed by step path; a graph
 * edit moves steps to other paths (a step inserted above shifts the ones below). These carry each
 * figure to where its step went, so the marks stay on their nodes; a removed step's go.
 */
export function followStats(stats: FlowRunStats, integration: string, follow: PathFollow): FlowRunStats {
  const prefix = `${integration} `;
  const keys = <T>(record: Record<string, T>): Record<string, T> => {
    const out: Record<string, T> = {};
    for (const [key, value] of Object.entries(record)) {
      if (!key.startsWith(prefix) || !key.slice(prefix.length).startsWith('flows.')) {
        out[key] = value;
        continue;
      }
      const to = follow(key.slice(prefix.length));
      if (to !== undefined) out[prefix + to] = value;
    }
    return out;
  };
  const lastRun = Object.fromEntries(
    Object.entries(stats.lastRun).map(([key, run]) => [key, key.startsWith(prefix) ? { ...run, steps: renameKeys(run.steps, follow) } : run]),
  );
  return { steps: keys(stats.steps), runs: stats.runs, lastRun, lastInput: keys(stats.lastInput) };
}

export function followCoverage(coverage: CoverageView, follow: PathFollow): CoverageView {
  const steps = coverage.steps.flatMap((s) => {
    const path = follow(s.path);
    return path === undefined ? [] : [{ ...s, path }];
  });
  const branches = coverage.branches.flatMap((b) => {
    const step = follow(b.step);
    if (step === undefined) return [];
    const n = /^case (\d+)$/.exec(b.label);
    if (!n) return [{ ...b, step }];
    // A case removed or added above shifts the case numbers too.
    const moved = follow(`${b.step}.switch.cases[${n[1]}]`);
    const index = moved && /\.switch\.cases\[(\d+)\]$/.exec(moved);
    return index ? [{ ...b, step, label: `case ${index[1]}` }] : [];
  });
  return { steps, branches };
}

function renameKeys<T>(record: Record<string, T>, follow: PathFollow): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [path, value] of Object.entries(record)) {
    const to = follow(path);
    if (to !== undefined) out[to] = value;
  }
  return out;
}
