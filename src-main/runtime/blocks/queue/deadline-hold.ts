import type { Clock, ClockTimer } from '../../../../shared/clock.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';

/** How far each extension pushes a paused run's delivery, and how often it is renewed (a third of it). */
export const HOLD_SECONDS = 60;

let warned = false;

/**
 * While a run is paused in a debugger, its delivery's ack deadline is pushed HOLD_SECONDS ahead,
 * renewed every third of that, so the platform does not deliver the message again to another
 * consumer meanwhile; once the run goes on the delivery is acked or nacked as usual. A platform
 * without the extension route says so once; its deadline then stands.
 */
export function deadlineHold(clock: Clock, extend: (seconds: number) => Promise<boolean>, log: Logger): { paused(): void; resumed(): void } {
  let timer: ClockTimer | undefined;
  let holding = false;
  const renew = (): void => {
    if (!holding) return;
    extend(HOLD_SECONDS).then(
      (ok) => {
        if (!ok && !warned) {
          warned = true;
          log.warn('the platform cannot extend ack deadlines: a message whose run is paused is delivered again once its deadline passes');
        }
      },
      (err: unknown) => log.debug('could not extend a paused delivery’s ack deadline', { error: errorMessage(err) }),
    );
    timer = clock.setTimeout(renew, (HOLD_SECONDS * 1000) / 3, { unref: true });
  };
  return {
    paused() {
      holding = true;
      renew();
    },
    resumed() {
      holding = false;
      clock.clearTimeout(timer);
    },
  };
}
