import type { Clock } from '../../../shared/clock.ts';
import { FailureWindow, type FailureWindowSummary } from '../../../shared/failure-window.ts';
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

/** A failed or rejected run as a window keeps it: enough for the summary and its link. */
interface Folded {
  runId: string;
  rejected: boolean;
  step: string | undefined;
  error: string;
}

export interface RunEndLinesOptions {
  clock: Clock;
  /** Where a line goes: the Logs history and the windows' feed. */
  write(line: LogFeedEvent): void;
  /** The window in which each distinct failure of a flow gets its own line (a minute). */
  intervalMs?: number;
}

/** Distinct failures a summary line's fields name (the most frequent); the rest are in its count. */
const SUMMARY_NAMES = 5;

/**
 * Writes the Logs line of each failed or rejected run (`runEndLine`), bounded as `flow-studio
 * run`'s own line is: per integration and flow, each distinct failure (its error and the step
 * that failed, or a rejection's reason and step) gets one line a minute, and the runs not written
 * one by one are one summary line of the flow when the minute ends, or when the integration stops.
 * A queue flow that fails every job with a short `nackDelay`, or a route a load tool hammers while
 * it fails, so stays a few lines instead of pushing everything else out of the log history. Every
 * run is still in Traces, which the summary points to.
 */
export class RunEndLines {
  /** One window per `integration \0 flow`, made at its first failure. */
  private readonly windows = new Map<string, FailureWindow<Folded>>();

  constructor(private readonly o: RunEndLinesOptions) {}

  report(s: RunSummary, failure: RunFailureNote = {}): void {
    const rejected = s.outcome === 'rejected';
    const step = rejected ? s.rejection?.step : failure.step;
    const error = (rejected ? s.rejection?.reason : s.error) ?? '';
    const folded: Folded = { runId: s.runId, rejected, step, error };
    if (this.windowOf(s.integration, s.flow).admit(`${s.outcome}\u0000${step ?? ''}\u0000${error}`, folded)) this.o.write(runEndLine(s, failure));
  }

  /** Writes what the windows of `integration` (of every integration, when none is named) held back, now: it stopped. */
  flush(integration?: string): void {
    for (const [key, window] of this.windows) {
      if (integration !== undefined && key.slice(0, key.indexOf('\u0000')) !== integration) continue;
      this.windows.delete(key);
      window.flush();
    }
  }

  private windowOf(integration: string, flow: string): FailureWindow<Folded> {
    const key = `${integration}\u0000${flow}`;
    let window = this.windows.get(key);
    if (!window) {
      window = new FailureWindow<Folded>({
        clock: this.o.clock,
        intervalMs: this.o.intervalMs,
        onSummary: (summary) => this.o.write(this.summaryLine(integration, flow, summary)),
      });
      this.windows.set(key, window);
    }
    return window;
  }

  private summaryLine(integration: string, flow: string, { suppressed, seconds, failures, latest }: FailureWindowSummary<Folded>): LogFeedEvent {
    const at = this.o.clock.now();
    // Rejections are folded with failures; the line names them only when some were.
    const rejections = failures.some((f) => f.first.rejected);
    const onlyRejections = failures.length > 0 && failures.every((f) => f.first.rejected) && latest.rejected;
    const what = onlyRejections ? 'rejected' : rejections ? 'failed or rejected' : 'failed';
    const runs = suppressed === 1 ? 'run was' : 'runs were';
    const msg = `${suppressed} more ${what} ${runs} not logged one by one in the last ${seconds}s — see them all in Traces (flow ${flow}, outcome ${what.replace(' or ', ' / ')})`;
    const fields: Record<string, unknown> = {
      flow,
      // The newest of them: its Traces detail is one click away, as a failed run's own line's is.
      runId: latest.runId,
      suppressed,
      seconds,
      failures: failures.slice(0, SUMMARY_NAMES).map(({ first, count }) => ({ step: first.step, error: first.error, count })),
    };
    return { kind: 'log', at, integration, log: { time: new Date(at).toISOString(), level: onlyRejections ? 'warn' : 'error', msg, fields } };
  }
}
