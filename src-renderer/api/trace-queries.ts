import type { RunComparison, RunDetail, RunPage, RunQuery, TraceValueRef } from '../../shared/trace-types.ts';
import { studio } from './studio-client.ts';

/** The Traces panel's calls; plain passthroughs, so components never hold the bridge. */
export const traceQueries = {
  runs: (query: RunQuery): Promise<RunPage> => studio.queryRuns(query),
  detail: (runId: string): Promise<RunDetail | null> => studio.runDetail(runId),
  value: (ref: TraceValueRef): Promise<unknown> => studio.traceValue(ref),
  compare: (a: string, b: string): Promise<RunComparison> => studio.compareRuns(a, b),
  clear: (): Promise<void> => studio.clearRuns(),
};
