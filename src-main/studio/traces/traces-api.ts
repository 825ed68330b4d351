import type { TracesApi } from '../../../shared/studio-api.ts';
import type { VerificationNote } from '../../../shared/request-types.ts';
import type { RunDetail, RunOrigin, RunOutcome, RunQuery, RunSummary } from '../../../shared/trace-types.ts';
import { StudioError } from '../studio-error.ts';
import { compareRuns } from './run-compare.ts';
import { definitionChange, type DefinitionFilesOf } from './definition-change.ts';
import { runDetailView, storedStepAt } from './run-detail.ts';
import type { RunStore } from './run-store.ts';
import { valueAt } from './value-view.ts';

/** The StudioApi methods of the Traces panel (declared once in shared/), over the run store. */
export type { TracesApi };

const OUTCOMES: readonly RunOutcome[] = ['completed', 'dropped', 'failed', 'rejected'];

/**
 * `definitionFiles`: the files of a definition version, for Compare's definition diff;
 * `verificationOf`: what a rejected run's verification expected and received.
 */
export function tracesApi(
  store: RunStore,
  definitionFiles?: DefinitionFilesOf,
  verificationOf?: (summary: RunSummary) => VerificationNote | undefined,
): Omit<TracesApi, 'runMetrics' | 'runSparklines'> {
  const detailOf = (runId: string): RunDetail | null => {
    const found = store.detail(String(runId));
    if (!found) return null;
    const view = runDetailView(found.summary, found.detail);
    const traceRuns = store.sameTrace(String(runId));
    if (traceRuns.length > 0) view.traceRuns = traceRuns;
    const verification = found.summary.rejection ? verificationOf?.(found.summary) : undefined;
    if (verification) view.verification = verification;
    return view;
  };
  return {
    async queryRuns(query) {
      return store.query(cleanQuery(query));
    },
    async runDetail(runId) {
      return detailOf(runId);
    },
    async traceValue(ref) {
      const found = store.detail(String(ref?.runId));
      if (!found?.detail) throw new StudioError(`run ${String(ref?.runId)} is no longer stored with its messages; newer runs pushed it out`);
      const { detail } = found;
      const side = ref.side === 'output' ? 'output' : 'input';
      const source = ref.step === -1 ? detail[side] : storedStepAt(detail, Number(ref.step))?.[side];
      if (source === undefined) throw new StudioError(`step ${ref.step} of run ${ref.runId} has no recorded ${side}`);
      const path = Array.isArray(ref.path) ? ref.path.filter((p) => typeof p === 'string' || typeof p === 'number') : [];
      return valueAt(source, path) ?? null;
    },
    async compareRuns(a, b) {
      const left = detailOf(a);
      const right = detailOf(b);
      if (!left || !right) throw new StudioError(`run ${!left ? a : b} is not stored; pick two runs from the list`);
      const comparison = compareRuns(left, right);
      const definitions = definitionChange(comparison.a, comparison.b, definitionFiles);
      if (definitions) comparison.definitions = definitions;
      return comparison;
    },
    async clearRuns() {
      store.clear();
    },
  };
}

/** A query as a window sent it, with anything unexpected dropped rather than trusted. */
const ORIGINS: readonly RunOrigin[] = ['live', 'test', 'rerun'];

function cleanQuery(q: RunQuery): RunQuery {
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const outcome = OUTCOMES.find((o) => o === q?.outcome);
  return {
    integration: text(q?.integration),
    flow: text(q?.flow),
    route: text(q?.route),
    generation: Number.isInteger(q?.generation) ? q.generation : undefined,
    outcome,
    status: text(q?.status),
    text: text(q?.text),
    origin: ORIGINS.find((o) => o === q?.origin),
    offset: Number.isFinite(q?.offset) ? q.offset : 0,
    limit: Number.isFinite(q?.limit) ? q.limit : 200,
  };
}
