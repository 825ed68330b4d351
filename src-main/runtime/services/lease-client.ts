import { systemClock, type Clock, type ClockTimer } from '../../../shared/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { Identity } from './api-config.ts';
import { acquireLease, releaseLease, renewLease } from '../../../shared/platform-api/route-addresses.ts';
import type { PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import { PlatformError } from './platform-error.ts';
import { RUN_ID_HEADER } from '../../../shared/run-id-header.ts';
import type { HeldLease, LeaseOptions, LeaseService } from './platform-services.ts';
import { callRoute, responseJson } from './route-call.ts';

export interface LeaseBounds {
  minTtlSeconds?: number;
  maxTtlSeconds?: number;
}

/**
 * Leases over /v1/leases (spec 1 §3.1, §4.2). Acquire tries once; a granted claim renews about
 * three times per TTL until released. A renewal answered 404 or 409 gives the claim up at once;
 * any other failure is transient and retried until the TTL since the last good renewal passes.
 *
 * Under `unsupported: noop` a deployment declared itself a single instance, so claims are
 * granted in process (still one holder per name) and never reach the platform.
 */
export class LeaseClient implements LeaseService {
  private readonly local = new Set<string>();

  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly identity: Identity,
    private readonly bounds: LeaseBounds,
    private readonly log: Logger,
    /** Renewal timers and the TTL since the last good renewal run on it. */
    private readonly clock: Clock = systemClock,
  ) {}

  async acquire(name: string, ttlMs: number, options: LeaseOptions = {}): Promise<HeldLease | undefined> {
    const op = `lease acquire ${name}`;
    if (!this.cap.usable) return this.acquireLocally(op, name);
    const ttlSeconds = this.clamp(ttlMs / 1000);
    const sentAt = this.clock.now();
    const runHeaders = options.runId ? { [RUN_ID_HEADER]: options.runId } : undefined;
    const res = await callRoute(this.http, acquireLease, {
      json: { name, holder: this.identity.instanceId, ttlSeconds },
      headers: runHeaders,
      capability: this.cap,
    });
    if (res.status === 501) return this.acquireLocally(op, name);
    if (res.status === 409) return undefined;
    if (res.status !== 200) throw new PlatformError(res.route, res.status, res.body, op);
    const body = responseJson(res, acquireLease, 200);
    // Another implementation of the contract may answer less than it declares: anything but a grant is none.
    if (body.acquired !== true || typeof body.leaseId !== 'string') return undefined;
    return new RenewedLease(this.http, this.cap, name, body.leaseId, ttlSeconds * 1000, sentAt, this.log, this.clock, runHeaders);
  }

  private acquireLocally(op: string, name: string): HeldLease | undefined {
    this.cap.refuseIfError(op);
    if (this.local.has(name)) return undefined;
    this.local.add(name);
    const lost = new AbortController();
    return {
      name,
      leaseId: `local-${name}`,
      lost: lost.signal,
      release: async () => {
        this.local.delete(name);
      },
    };
  }

  private clamp(seconds: number): number {
    const { minTtlSeconds, maxTtlSeconds } = this.bounds;
    let s = seconds;
    if (minTtlSeconds !== undefined) s = Math.max(s, minTtlSeconds);
    if (maxTtlSeconds !== undefined) s = Math.min(s, maxTtlSeconds);
    return s;
  }
}

class RenewedLease implements HeldLease {
  private readonly controller = new AbortController();
  private timer: ClockTimer | undefined;
  private confirmedAt: number;
  private released = false;

  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    readonly name: string,
    readonly leaseId: string,
    private readonly ttlMs: number,
    grantedAt: number,
    private readonly log: Logger,
    private readonly clock: Clock,
    /** The X-Flow-Run-Id of the run that asked, sent again with the release. */
    private readonly runHeaders?: Record<string, string>,
  ) {
    this.confirmedAt = grantedAt;
    this.schedule();
  }

  get lost(): AbortSignal {
    return this.controller.signal;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.clock.clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    try {
      const res = await callRoute(this.http, releaseLease, {
        params: { leaseId: this.leaseId },
        headers: this.runHeaders,
        capability: this.cap,
        timeoutMs: 3000,
      });
      if (res.status !== 204 && res.status !== 200 && res.status !== 404) {
        this.log.debug('lease release failed; the name waits out its TTL', { lease: this.name, status: res.status });
      }
    } catch (err) {
      this.log.debug('lease release failed; the name waits out its TTL', { lease: this.name, error: (err as Error).message });
    }
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => void this.renew(), this.ttlMs / 3, { unref: true });
  }

  private async renew(): Promise<void> {
    if (this.released) return;
    const sentAt = this.clock.now();
    let problem: string;
    try {
      const res = await callRoute(this.http, renewLease, {
        params: { leaseId: this.leaseId },
        json: { ttlSeconds: this.ttlMs / 1000 },
        capability: this.cap,
        timeoutMs: Math.max(1000, this.ttlMs / 3),
      });
      if (res.status === 204 || res.status === 200) {
        this.confirmedAt = sentAt;
        if (!this.released) this.schedule();
        return;
      }
      if (res.status === 404 || res.status === 409) return this.lose(`the platform refused the renewal (${res.status}): the claim is gone or another holds it`);
      if (res.status === 501) return this.lose('the platform turned leases off (renew answered 501)');
      problem = new PlatformError(res.route, res.status, res.body).message;
    } catch (err) {
      problem = (err as Error).message;
    }
    if (this.released) return;
    // Transient: keep trying while the claim can still be alive on the platform.
    const left = this.confirmedAt + this.ttlMs - this.clock.now();
    if (left <= 0) return this.lose(`no renewal succeeded within the TTL (last: ${problem})`);
    this.log.warn('lease renewal failed; retrying until the TTL passes', { lease: this.name, error: problem });
    this.timer = this.clock.setTimeout(() => void this.renew(), Math.min(left, Math.max(100, this.ttlMs / 6)), { unref: true });
  }

  private lose(reason: string): void {
    this.clock.clearTimeout(this.timer);
    this.log.warn(`lease ${this.name} lost: ${reason}`, { lease: this.name });
    this.controller.abort(new Error(`lease ${this.name} lost: ${reason}`));
  }
}
