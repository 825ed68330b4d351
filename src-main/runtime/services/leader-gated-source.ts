import type { Source } from '../core/component.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { Candidacy, PlatformServices } from './platform-services.ts';

export interface LeaderGateOptions {
  key: string;
  services: PlatformServices;
  log: Logger;
}

/**
 * A flow's `leader: true`: the source runs only while this instance leads its key. Gaining
 * leadership starts the source, losing it stops the source (in-flight messages finish), and
 * stopping the flow resigns so another instance takes over at once rather than after the TTL.
 */
export function leaderGatedSource(inner: Source, o: LeaderGateOptions): Source {
  let candidacy: Candidacy | undefined;
  let running = false;
  let stopping = false;
  // Start and stop of the inner source happen one after another, in the order leadership changed.
  let transitions: Promise<void> = Promise.resolve();

  const follow = (leading: boolean): void => {
    transitions = transitions.then(async () => {
      if (stopping || leading === running) return;
      try {
        if (leading) {
          await inner.start();
          running = true;
          o.log.info(`leading ${o.key}: source started`, { leaderKey: o.key });
        } else {
          running = false;
          await inner.stop();
          o.log.info(`no longer leading ${o.key}: source stopped`, { leaderKey: o.key });
        }
      } catch (err) {
        o.log.error(`source did not ${leading ? 'start' : 'stop'} on a leadership change`, { leaderKey: o.key, error: errorMessage(err) });
      }
    });
  };

  return {
    async start() {
      stopping = false;
      candidacy = o.services.leader.join(o.key, follow);
    },
    async stop() {
      stopping = true;
      await transitions;
      if (running) {
        running = false;
        await inner.stop();
      }
      await candidacy?.stop();
      candidacy = undefined;
    },
    describe() {
      return { ...inner.describe?.(), leaderKey: o.key, leading: candidacy?.leading ?? false };
    },
  };
}
