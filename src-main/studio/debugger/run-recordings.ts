import { BoundedMap } from '../../../shared/bounded-map.ts';
import type { TraceHub, TraceSpan } from '../../runtime/index.ts';
import type { RecordedRun } from './run-replay.ts';

/** Correlation ids whose calls are held until their run ends; a run still going after this many newer ones loses its calls. */
const PENDING_RUNS = 1000;

/**
 * Records each run of a runtime as a replay needs it: its first message (step snapshots are asked
 * for) and the calls its steps made, a flow-ref's runs' calls included (they share the
 * correlation id). `onRun` gets each run as it ends.
 */
export function recordRuns(traces: TraceHub, onRun: (run: RecordedRun & { traceId?: string }, ended: { outcome: string; error?: string }) => void): () => void {
  const calls = new BoundedMap<string, TraceSpan[]>(PENDING_RUNS);
  return traces.add({
    snapshots: true,
    serverSpans: false,
    span: (span) => {
      if (span.kind !== 'http') return;
      const list = calls.get(span.correlationId) ?? [];
      list.push(span);
      calls.set(span.correlationId, list);
    },
    emit: (e) => {
      if (e.kind !== 'run') return;
      const made = calls.get(e.correlationId) ?? [];
      onRun(
        {
          runId: e.runId,
          ...(e.traceId !== undefined ? { traceId: e.traceId } : {}),
          flow: e.flow,
          ...(e.input !== undefined ? { input: e.input as RecordedRun['input'] } : {}),
          calls: made.map((c) => ({ kind: c.kind, ...(c.status !== undefined ? { status: c.status } : {}), ...(c.detail !== undefined ? { detail: c.detail } : {}) })),
        },
        { outcome: e.outcome, ...(e.error !== undefined ? { error: e.error } : {}) },
      );
    },
  });
}
