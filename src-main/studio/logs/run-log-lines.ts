import type { LogFeedEvent } from '../../../shared/feed-events.ts';
import type { RunSummary } from '../../../shared/trace-types.ts';
import type { RunFailureNote } from '../traces/run-failure-note.ts';

/**
 * The Logs panel's line for a run that failed (an error) or whose request a verification step
 * turned away (a warning), so a failure shows where people look for one, linked to its run. A
 * failure names its step and block, and a queue or topic message's delivery, as `flow-studio
 * run`'s own line does (the studio turns that one off: one line per failure).
 */
export function runEndLine(s: RunSummary, failure: RunFailureNote = {}): LogFeedEvent {
  const fields: Record<string, unknown> = { runId: s.runId, flow: s.flow };
  if (s.route !== undefined) fields.route = s.route;
  if (s.status !== undefined) fields.status = s.status;
  const at = s.startedAt + s.durationMs;
  const time = new Date(at).toISOString();
  if (s.outcome === 'rejected') {
    fields.step = s.rejection?.step;
    return { kind: 'log', at, integration: s.integration, log: { time, level: 'warn', msg: `request rejected by ${s.rejection?.block ?? 'a verification step'}: ${s.rejection?.reason ?? ''}`, fields } };
  }
  if (failure.step !== undefined) fields.step = failure.step;
  if (failure.block !== undefined) fields.block = failure.block;
  if (failure.deliveryCount !== undefined) fields.deliveryCount = failure.deliveryCount;
  // The error first: the Logs panel cuts a long message at its column's edge, and it is what a person reads for.
  const where = [
    failure.step === undefined ? undefined : `at ${failure.step}${failure.block === undefined ? '' : ` (${failure.block})`}`,
    failure.deliveryCount === undefined ? undefined : `delivery ${failure.deliveryCount}`,
  ].filter((part) => part !== undefined);
  const after = where.length > 0 ? ` — ${where.join(', ')}` : '';
  return { kind: 'log', at, integration: s.integration, log: { time, level: 'error', msg: `run failed: ${s.error ?? 'no error was given'}${after}`, fields } };
}
