import { systemClock, type Clock, type ClockTimer } from '../../../shared/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { Identity } from './api-config.ts';
import { campaign, resign } from '../../../shared/platform-api/route-addresses.ts';
import type { PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import { PlatformError } from './platform-error.ts';
import type { Candidacy, LeaderElection } from './platform-services.ts';
import { callRoute, responseJson } from './route-call.ts';

export interface LeaderTimings {
  ttlMs: number;
  renewMs: number;
  observeMs: number;
}

/** Spec 1 §2.2 defaults: TTL 15 s, renew 5 s, observe 2 s. */
export const DEFAULT_LEADER_TIMINGS: LeaderTimings = { ttlMs: 15_000, renewMs: 5_000, observeMs: 2_000 };

/**
 * The TTL must comfortably exceed three renew intervals (spec 1 §4.2), so a renew interval
 * above a third of the TTL is shortened to a third.
 */
export function effectiveTimings(t: LeaderTimings): LeaderTimings {
  return { ...t, renewMs: Math.min(t.renewMs, t.ttlMs / 3) };
}

/**
 * Leader election over /v1/leader/{key}/campaign (spec 1 §3.2): one endpoint claims and renews.
 * A leader campaigns every renew interval, a follower every observe interval. A leader that
 * cannot confirm its claim steps down one renew interval before the TTL would let another
 * instance take over, so two leaders never run at once.
 */
export class LeaderClient implements LeaderElection {
  private readonly local = new Set<string>();

  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly identity: Identity,
    private readonly timings: LeaderTimings,
    private readonly log: Logger,
    /** Campaign timers and the step-down deadline run on it. */
    private readonly clock: Clock = systemClock,
  ) {}

  join(key: string, onChange: (leading: boolean) => void): Candidacy {
    const op = `leader campaign ${key}`;
    this.cap.refuseIfError(op);
    if (!this.cap.usable) return this.localCandidacy(key, onChange);
    return new Campaign(this.http, this.cap, this.identity, effectiveTimings(this.timings), key, onChange, this.log, this.clock, () =>
      this.localCandidacy(key, onChange),
    );
  }

  /** `unsupported: noop`: a single instance leads; one holder per key inside this process. */
  private localCandidacy(key: string, onChange: (leading: boolean) => void): Candidacy {
    const leading = !this.local.has(key);
    if (leading) this.local.add(key);
    queueMicrotask(() => leading && onChange(true));
    return {
      leading,
      stop: async () => {
        if (leading) this.local.delete(key);
      },
    };
  }
}

class Campaign implements Candidacy {
  private timer: ClockTimer | undefined;
  private lead = false;
  private leaseId: string | undefined;
  private confirmedAt = 0;
  private stopped = false;
  private inFlight: Promise<void> | undefined;
  private fallback: Candidacy | undefined;

  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly identity: Identity,
    private readonly t: LeaderTimings,
    private readonly key: string,
    private readonly onChange: (leading: boolean) => void,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly degrade: () => Candidacy,
  ) {
    this.next(0);
  }

  get leading(): boolean {
    return this.fallback ? this.fallback.leading : this.lead;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    await this.inFlight;
    await this.fallback?.stop();
    if (!this.lead) return;
    this.lead = false;
    try {
      await callRoute(this.http, resign, {
        params: { key: this.key },
        json: { candidate: this.identity.instanceId, leaseId: this.leaseId },
        capability: this.cap,
        timeoutMs: 3000,
      });
    } catch (err) {
      // Best effort: a failed resign only means the key waits out its TTL.
      this.log.debug('leader resign failed; the key waits out its TTL', { key: this.key, error: (err as Error).message });
    }
  }

  private next(delayMs: number): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.inFlight = this.campaign().finally(() => {
          this.inFlight = undefined;
          this.next(this.lead ? this.t.renewMs : this.t.observeMs);
        });
      },
      delayMs,
      { unref: true },
    );
  }

  private async campaign(): Promise<void> {
    const sentAt = this.clock.now();
    try {
      const res = await callRoute(this.http, campaign, {
        params: { key: this.key },
        json: { candidate: this.identity.instanceId, ttlSeconds: this.t.ttlMs / 1000 },
        capability: this.cap,
        timeoutMs: Math.max(1000, this.t.renewMs),
      });
      if (this.stopped) return;
      if (res.status === 501) return this.turnedOff();
      if (res.status !== 200) throw new PlatformError(res.route, res.status, res.body, `leader campaign ${this.key}`);
      const body = responseJson(res, campaign, 200);
      if (body.leader === true) {
        this.leaseId = body.leaseId;
        this.confirmedAt = sentAt;
        this.set(true);
      } else {
        this.set(false, body.currentLeader);
      }
    } catch (err) {
      if (this.stopped || !this.lead) return;
      // Step down early enough that a successor, who may take over at the TTL, never overlaps.
      if (this.clock.now() >= this.confirmedAt + this.t.ttlMs - this.t.renewMs) {
        this.log.warn(`leader of ${this.key} cannot confirm its claim; stepping down`, { key: this.key, error: (err as Error).message });
        this.set(false);
      } else {
        this.log.warn('leader campaign failed; retrying', { key: this.key, error: (err as Error).message });
      }
    }
  }

  /** A 501: leadership is off for the process; noop leads in process, error stops leading. */
  private turnedOff(): void {
    const was = this.lead;
    this.lead = false;
    this.stopped = true;
    if (was) this.onChange(false);
    if (this.cap.policy === 'noop') this.fallback = this.degrade();
  }

  private set(leading: boolean, currentLeader?: string): void {
    if (leading === this.lead) return;
    this.lead = leading;
    this.log.info(leading ? `elected leader of ${this.key}` : `not the leader of ${this.key}`, { key: this.key, currentLeader });
    this.onChange(leading);
  }
}
