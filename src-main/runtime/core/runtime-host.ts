import type { Clock } from '../../../shared/clock.ts';
import type { FlowResult, RunContext } from './engine/chain.ts';
import type { Message } from './message.ts';
import type { PlatformServices } from '../services/platform-services.ts';
import type { ExchangeHub } from './exchange-hub.ts';
import type { RuntimeSandbox } from './sandbox.ts';

/** What a running component can reach beyond its own settings. */
export interface RuntimeHost {
  /** Runs a flow of the same definition and returns its result (flow-ref). */
  runFlow(name: string, msg: Message, parent: RunContext): Promise<FlowResult>;
  /** The resolved value of a declared environment variable. */
  env(name: string): string | undefined;
  /** Masks secret values in text meant for people (error bodies, messages). */
  redact(text: string): string;
  /** Adds a value read from a secret store to what logs, traces and errors mask. */
  protectSecret(value: string): void;
  readonly identity: { deploymentId: string; instanceId: string };
  readonly services: PlatformServices;
  /** Where server connectors report the requests they answer, for whoever watches (the studio). */
  readonly exchanges?: ExchangeHub;
  /** Stand-ins for the outside world (flow tests, stubbed re-runs); absent in a real run. */
  readonly sandbox?: RuntimeSandbox;
  /**
   * What schedules, timeouts and retry waits run on: the system clock, or a flow test's virtual
   * one. Components that wait for time (schedule, http-client, queue, lock, route timeouts) use it.
   */
  readonly clock: Clock;
  /**
   * False: sources write no `warn` line for a failed run (RunFailureLog), as the caller logs each
   * failed run itself (the studio, one line linked to the run). Absent: they do.
   */
  readonly logFailedRuns?: boolean;
}
