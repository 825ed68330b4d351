import type { Clock } from '../../../shared/clock.ts';
import { FailureWindow } from '../../../shared/failure-window.ts';
import type { Logger } from './logger.ts';
import type { MessageError } from './message.ts';
import type { RuntimeHost } from './runtime-host.ts';

/**
 * What becomes of the message whose run failed, in the platform spec's terms: `redelivered` (a
 * queue source nacks it and it is waiting again after `delaySeconds`), `dropped` (a schedule
 * tick, or a topic delivery, which is acknowledged whatever the flow did: there is no nack) or
 * `answered` (an HTTP caller got the failure's status). Nothing dead-letters: the spec has no
 * delivery limit.
 */
export type AfterFailure = 'redelivered' | 'dropped' | 'answered';

/** The source side of one failed run: where it came from and what happens to it next. */
export interface FailedRunSource {
  /** The source's type and what names it, e.g. `{source: 'queue', subject: 'report-jobs'}`. */
  source: { source: string } & Record<string, unknown>;
  next: AfterFailure;
  /** The platform's delivery count (1 on the first delivery), when the source knows it. */
  deliveryCount?: number;
  /** For `redelivered`: how long the message waits before it comes again. */
  retryInMs?: number;
  /** For `answered`: the status the caller got. */
  status?: number;
}

export interface RunFailureLogOptions {
  log: Logger;
  clock: Clock;
  /** The window in which each failure is logged once in full; the rest of it is one summary line. */
  intervalMs?: number;
  /** Distinct failures logged in full per window, and kept for its summary: the bound under a flood of different errors. */
  maxDistinct?: number;
}

interface Counted {
  step: string | undefined;
  block: string | undefined;
  error: string;
}

/** Failures a summary names one by one (the most frequent); the rest are in its total. */
const SUMMARY_NAMES = 5;

/**
 * Says in the run's log that a run failed, as one `warn` line naming the step, its block, the
 * error and what happens to the message next: for a queue, topic or schedule run nobody waits
 * on, the only place the failure shows (before, a failed job was nacked silently); for an HTTP
 * run, the server's side of the error its caller got.
 *
 * Bounded under a flood (a FailureWindow, as the studio's Logs lines are): within a window of
 * `intervalMs` (from its first failure) each distinct (step, error) of the flow is logged once,
 * and the failures not logged are counted into one summary line when the window ends. The error
 * text reaches the log through the logger, whose redactor masks secret values as in every other
 * line.
 */
export class RunFailureLog {
  private readonly window: FailureWindow<Counted>;

  constructor(private readonly o: RunFailureLogOptions) {
    this.window = new FailureWindow<Counted>({
      clock: o.clock,
      intervalMs: o.intervalMs,
      maxDistinct: o.maxDistinct,
      onSummary: ({ suppressed, seconds, failures }) =>
        this.o.log.warn(`${suppressed} more failed ${suppressed === 1 ? 'run was' : 'runs were'} not logged one by one in the last ${seconds}s`, {
          suppressed,
          seconds,
          failures: failures.slice(0, SUMMARY_NAMES).map(({ first, count }) => ({
            step: first.step,
            block: first.block,
            error: first.error,
            count,
          })),
        }),
    });
  }

  report(error: MessageError | undefined, about: FailedRunSource): void {
    const message = error?.message ?? 'the flow failed';
    const key = `${error?.step ?? ''}\u0000${message}`;
    if (!this.window.admit(key, { step: error?.step, block: error?.block, error: message })) return;
    this.o.log.warn(sentence(message, error, about), {
      ...about.source,
      step: error?.step,
      block: error?.block,
      error: message,
      deliveryCount: about.deliveryCount,
      next: about.next,
      retryInSeconds: about.retryInMs === undefined ? undefined : about.retryInMs / 1000,
      status: about.status,
    });
  }

  /** Says what the window held back now (a source stopping), instead of when it ends. */
  flush(): void {
    this.window.flush();
  }
}

/**
 * A source's RunFailureLog, or none when the runtime's caller logs every failed run itself
 * (`logFailedRuns: false`, the studio): then a source adds nothing to its runs, not even a
 * wrapper around an HTTP run's result.
 */
export function runFailureLogFor(ctx: { log: Logger; host: Pick<RuntimeHost, 'clock' | 'logFailedRuns'> }): RunFailureLog | undefined {
  return ctx.host.logFailedRuns === false ? undefined : new RunFailureLog({ log: ctx.log, clock: ctx.host.clock });
}

function sentence(message: string, error: MessageError | undefined, about: FailedRunSource): string {
  const where = error?.step ? ` at ${error.step}${error.block ? ` (${error.block})` : ''}` : '';
  const delivery = about.deliveryCount === undefined ? '' : ` (delivery ${about.deliveryCount})`;
  const next =
    about.next === 'answered'
      ? `the caller was answered ${about.status ?? 500}`
      : about.next === 'redelivered'
        ? `the message was nacked and is redelivered${about.retryInMs === undefined ? '' : ` in ${about.retryInMs / 1000}s`}`
        : about.source.source === 'schedule'
          ? 'the tick is dropped; the next one runs as usual'
          : 'the message is dropped (acknowledged, not redelivered)';
  return `run failed${where}${delivery}: ${message}; ${next}`;
}
