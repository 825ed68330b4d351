import type { Logger } from '../core/logger.ts';

/** The capabilities of the delegation API, named as the discovery document's feature keys. */
export const CAPABILITY_NAMES = [
  'kv',
  'secrets',
  'resources',
  'leases',
  'leaderElection',
  'queues',
  'topics',
  'agentMemory',
  'traces',
  'logs',
] as const;

export type CapabilityName = (typeof CAPABILITY_NAMES)[number];
export type UnsupportedPolicy = 'noop' | 'error';

/**
 * Spec 1 §2.3: degrading leases or leader election would grant every claim, so two instances
 * would both run work meant to run once. Those two refuse unless a deployment says otherwise.
 */
export function defaultPolicy(name: CapabilityName): UnsupportedPolicy {
  return name === 'leases' || name === 'leaderElection' ? 'error' : 'noop';
}

/** How the runtime reaches one capability right now. */
export interface CapabilityStatus {
  name: CapabilityName;
  /** True while calls go to the platform. */
  usable: boolean;
  /** What happens to a call while it is not usable. */
  policy: UnsupportedPolicy;
  /** Why it is not usable, naming the flag or route, e.g. `features.kv.supported is false`. */
  reason?: string;
  /** True when the platform was asked (discovery or a 501): a definition that needs it can be refused at load. */
  known: boolean;
}

/** A call refused because its capability is off; says which capability and which flag. */
export class CapabilityUnavailableError extends Error {
  readonly capability: CapabilityName;
  constructor(capability: CapabilityName, message: string) {
    super(message);
    this.name = 'CapabilityUnavailableError';
    this.capability = capability;
  }
}

/**
 * One capability's switch. It starts as discovery says and turns off for the life of the process
 * when a route answers 501 (spec 1 rule 1), logging that once.
 */
export class Capability {
  private on: boolean;
  private why: string | undefined;

  constructor(
    readonly name: CapabilityName,
    supported: boolean,
    readonly policy: UnsupportedPolicy,
    reason: string | undefined,
    private readonly log: Logger,
    /** False for a runtime with no platform configured: nothing was asked, nothing is known. */
    readonly known = true,
  ) {
    this.on = supported;
    this.why = supported ? undefined : reason;
  }

  get usable(): boolean {
    return this.on;
  }

  get reason(): string | undefined {
    return this.why;
  }

  status(): CapabilityStatus {
    return { name: this.name, usable: this.on, policy: this.policy, reason: this.why, known: this.known };
  }

  /** Called when a route of this capability answered 501 (or 404 where the spec reads that so). */
  turnOff(reason: string): void {
    if (!this.on) return;
    this.on = false;
    this.why = reason;
    this.log.warn(`platform capability ${this.name} turned off for the life of this process: ${reason}; calls now follow unsupported: ${this.policy}`, {
      capability: this.name,
      policy: this.policy,
    });
  }

  /** The error a refused or degraded call fails with, e.g. `kv put user/a: …`. */
  unavailable(operation: string, detail?: string): CapabilityUnavailableError {
    const extra = detail ? `; ${detail}` : '';
    return new CapabilityUnavailableError(
      this.name,
      `${operation}: the platform capability "${this.name}" is off (${this.why ?? 'switched off'}; unsupported: ${this.policy})${extra}`,
    );
  }

  /** Throws under `unsupported: error`; under `noop` the caller degrades (a miss, a success). */
  refuseIfError(operation: string): void {
    if (!this.on && this.policy === 'error') throw this.unavailable(operation);
  }
}
