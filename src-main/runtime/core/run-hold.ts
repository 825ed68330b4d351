import type { Clock, ClockTimer } from '../../../shared/clock.ts';
import type { Message } from './message.ts';

/**
 * What a run's source and its debugger tell each other about a run, keyed by the message the run
 * started with: the source says what it holds (request or message headers, a delivery whose ack
 * deadline can be extended), the debugger says when the run is paused. A route's timeout and a
 * queue delivery's ack deadline then wait while the run waits. Nothing is recorded unless a
 * debugger is attached somewhere in the process (`watching`), so a plain `run` pays one number
 * check per message.
 */
export interface RunHold {
  /** Request headers (http) or message headers (queue, topic), shown at a pause. */
  headers?: Record<string, unknown>;
  /** Told when the run pauses and when it resumes: a queue source extends its delivery's ack deadline meanwhile. */
  whilePaused?: { paused(): void; resumed(): void };
  /** Set by the debugger: since when (clock ms) the run has been paused, undefined while it runs. */
  pausedSince?: number;
  /** Paused time before the current pause, in ms. */
  pausedMs: number;
  /** Called once the current pause ends (timers that waited for it). */
  onResume: Array<() => void>;
}

const holds = new WeakMap<Message, RunHold>();

export const runHolds = {
  /** Debuggers attached in this process; while 0, sources record nothing. */
  watching: 0,

  /** What is known about a run started with `root`, if anything. */
  of(root: Message): RunHold | undefined {
    return holds.get(root);
  },

  /** Adds what a source knows about a run it starts (only while a debugger watches). */
  note(root: Message, fields: Pick<RunHold, 'headers' | 'whilePaused'>): void {
    if (runHolds.watching === 0) return;
    const hold = runHolds.ensure(root);
    if (fields.headers !== undefined) hold.headers = fields.headers;
    if (fields.whilePaused !== undefined) hold.whilePaused = fields.whilePaused;
  },

  ensure(root: Message): RunHold {
    let hold = holds.get(root);
    if (!hold) holds.set(root, (hold = { pausedMs: 0, onResume: [] }));
    return hold;
  },

  /** The debugger paused the run: its source holds on. */
  paused(root: Message, now: number): void {
    const hold = runHolds.ensure(root);
    if (hold.pausedSince !== undefined) return;
    hold.pausedSince = now;
    hold.whilePaused?.paused();
  },

  /** The run goes on: timers that waited for it are re-armed for the time they had left. */
  resumed(root: Message, now: number): void {
    const hold = holds.get(root);
    if (hold?.pausedSince === undefined) return;
    hold.pausedMs += now - hold.pausedSince;
    hold.pausedSince = undefined;
    hold.whilePaused?.resumed();
    for (const wake of hold.onResume.splice(0)) wake();
  },
};

/** A timeout that does not count the time its run spent paused in a debugger. */
export interface HeldTimeout {
  clear(): void;
}

/**
 * Calls `fire` once the run started with `root` has been running (not paused) for `ms`. Costs
 * what a plain timer costs: the run's pauses are looked at only when the timer comes due, and
 * then it is re-armed for what is left, or waits for the pause to end.
 */
export function heldTimeout(clock: Clock, root: Message, ms: number, fire: () => void): HeldTimeout {
  const started = clock.now();
  let timer: ClockTimer | undefined;
  let cleared = false;
  const due = (): void => {
    timer = undefined;
    if (cleared) return;
    const hold = holds.get(root);
    if (!hold) return fire();
    if (hold.pausedSince !== undefined) {
      hold.onResume.push(due);
      return;
    }
    const ran = clock.now() - started - hold.pausedMs;
    if (ran >= ms) return fire();
    timer = clock.setTimeout(due, ms - ran);
  };
  timer = clock.setTimeout(due, ms);
  return {
    clear() {
      cleared = true;
      clock.clearTimeout(timer);
    },
  };
}
