import type { LogFeedEvent } from '../../../shared/feed-events.ts';
import type { RunSummary } from '../../../shared/trace-types.ts';

/**
 * The Logs panel's line for a run that failed (an error) or whose request a verification step
 * turned away (a warning), so a failure shows where people look for one, linked to its run.
 */
export function runEndLine(s: RunSummary): LogFeedEvent {
  const fields: Record<string, unknown> = { runId: s.runId, flow: s.flow };
  if (s.route !== undefined) fields.route = s.route;
  if (s.status !== undefined) fields.status = s.status;
  const at = s.startedAt + s.durationMs;
  const time = new Date(at).toISOString();
  if (s.outcome === 'rejected') {
    fields.step = s.rejection?.step;
    return { kind: 'log', at, integration: s.integration, log: { time, level: 'warn', msg: `request rejected by ${s.rejection?.block ?? 'a verification step'}: ${s.rejection?.reason ?? ''}`, fields } };
  }
  return { kind: 'log', at, integration: s.integration, log: { time, level: 'error', msg: `run failed: ${s.error ?? 'no error was given'}`, fields } };
}
