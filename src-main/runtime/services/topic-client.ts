import type { Logger } from '../core/logger.ts';
import type { Identity } from './api-config.ts';
import type { ApiRoute, RouteAddress, JsonResponse } from '../../../shared/platform-api/contract.ts';
import { subscribe, topicAck, topicExtend, topicPublish, topicReceive, unsubscribe } from '../../../shared/platform-api/route-addresses.ts';
import type { PlatformResponse, PlatformTransport } from './api-http.ts';
import { callRoute, responseJson, type RouteCall } from './route-call.ts';
import type { Capability } from './capability.ts';
import { parseDeliveries, sleep } from './deliveries.ts';
import { PlatformError } from './platform-error.ts';
import type { Delivery, ReceiveOptions, TopicService, TopicSubscription } from './platform-services.ts';

export interface TopicLimits {
  pollTimeoutMs: number;
  maxBatch: number;
}

/**
 * Topics over /v1/topics (spec 1 §3.4, §4.4): every subscription sees every message published
 * after it was created. `system: true` routes a subject to the platform plane; the runtime never
 * parses a subject name to decide that. Otherwise the deployment id scopes the subject to this
 * deployment's own plane.
 */
export class TopicClient implements TopicService {
  readonly pollTimeoutMs: number;
  readonly maxBatch: number;
  /** Set once the platform answered that it has no extend route: it is not asked again. */
  private noExtend = false;

  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly identity: Identity,
    limits: TopicLimits,
    private readonly log: Logger,
  ) {
    this.pollTimeoutMs = limits.pollTimeoutMs;
    this.maxBatch = limits.maxBatch;
  }

  async publish(subject: string, body: unknown, options: { system?: boolean; headers?: Record<string, string> } = {}): Promise<void> {
    const op = `topic publish ${subject}`;
    if (!this.cap.usable) throw this.cap.unavailable(op);
    const res = await this.send(topicPublish, {
      params: { subject },
      json: { body, headers: options.headers, system: options.system === true, deploymentId: this.identity.deploymentId },
    });
    if (res.status === 202 || res.status === 200) return;
    if (res.status === 501) throw this.cap.unavailable(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async subscribe(subject: string, options: { system?: boolean } = {}): Promise<TopicSubscription> {
    const op = `topic subscribe ${subject}`;
    if (!this.cap.usable) return this.idleSubscription(op);
    const id = await this.createSubscription(subject, options.system === true);
    if (id === undefined) return this.idleSubscription(op);
    return new ApiSubscription(this, subject, options.system === true, id, this.log);
  }

  /** The new subscription's id; undefined when the route answered 501 (capability now off). */
  async createSubscription(subject: string, system: boolean): Promise<string | undefined> {
    const op = `topic subscribe ${subject}`;
    const res = await this.send(subscribe, { params: { subject }, json: { system, deploymentId: this.identity.deploymentId } });
    if (res.status === 501) {
      this.cap.refuseIfError(op);
      return undefined;
    }
    if (res.status !== 201 && res.status !== 200) throw new PlatformError(res.route, res.status, res.body, op);
    // `id` is what some other platforms call it.
    const body: Partial<JsonResponse<typeof subscribe, 201>> & { id?: unknown } = responseJson(res, subscribe, 201);
    const id = typeof body.subscriptionId === 'string' ? body.subscriptionId : typeof body.id === 'string' ? body.id : undefined;
    if (!id) throw new Error(`${op}: the platform answered ${res.status} without a subscription id`);
    return id;
  }

  /** Keeps a subscription's in-flight deliveries for `seconds` more; false when the platform cannot (spec 1 has no such route). */
  async extend(subject: string, subscriptionId: string, handles: string[], seconds: number): Promise<boolean> {
    if (!this.cap.usable || this.noExtend) return false;
    const res = await this.send(topicExtend, { params: { subject }, json: { subscriptionId, handles, seconds } });
    if (res.status === 204 || res.status === 200) return true;
    if (res.status === 404 || res.status === 501 || res.status === 405) this.noExtend = true;
    return false;
  }

  send<R extends ApiRoute>(route: RouteAddress<R>, call: RouteCall<R>): Promise<PlatformResponse> {
    return callRoute(this.http, route, { ...call, capability: this.cap });
  }

  get capability(): Capability {
    return this.cap;
  }

  /** `unsupported: noop`: a subscription that never delivers, waiting out each window. */
  private idleSubscription(op: string): TopicSubscription {
    this.cap.refuseIfError(op);
    return {
      id: 'none',
      receive: async (o) => {
        await sleep(o.waitMs, o.signal);
        return [];
      },
      ack: async () => {},
      close: async () => {},
    };
  }
}

class ApiSubscription implements TopicSubscription {
  constructor(
    private readonly client: TopicClient,
    private readonly subject: string,
    private readonly system: boolean,
    private current: string,
    private readonly log: Logger,
  ) {}

  get id(): string {
    return this.current;
  }

  async receive(options: ReceiveOptions): Promise<Delivery[]> {
    const op = `topic receive ${this.subject}`;
    const cap = this.client.capability;
    if (!cap.usable) return this.idle(op, options);
    const res = await this.client.send(topicReceive, {
      params: { subject: this.subject },
      json: { subscriptionId: this.current, waitSeconds: options.waitMs / 1000, maxMessages: options.maxMessages },
      timeoutMs: options.waitMs + 10_000,
      signal: options.signal,
    });
    if (res.status === 200) return parseDeliveries(responseJson(res, topicReceive, 200));
    if (res.status === 204) return [];
    if (res.status === 404) {
      // The platform expired the subscription (idle too long): messages since then are gone.
      this.log.warn(`topic subscription on ${this.subject} expired on the platform; subscribing again (messages published meanwhile were missed)`, {
        subject: this.subject,
      });
      const id = await this.client.createSubscription(this.subject, this.system);
      if (id) this.current = id;
      return [];
    }
    if (res.status === 501) return this.idle(op, options);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async ack(handles: string[]): Promise<void> {
    const op = `topic ack ${this.subject}`;
    if (!this.client.capability.usable || handles.length === 0) return;
    const res = await this.client.send(topicAck, { params: { subject: this.subject }, json: { subscriptionId: this.current, handles } });
    if (res.status === 204 || res.status === 200 || res.status === 404 || res.status === 501) return;
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  extend(handles: string[], seconds: number): Promise<boolean> {
    return this.client.extend(this.subject, this.current, handles, seconds);
  }

  async close(): Promise<void> {
    if (!this.client.capability.usable) return;
    try {
      await this.client.send(unsubscribe, { params: { subject: this.subject, subscriptionId: this.current }, timeoutMs: 3000 });
    } catch (err) {
      // The platform expires idle subscriptions on its own; a failed delete costs nothing lasting.
      this.log.debug('topic subscription delete failed', { subject: this.subject, error: (err as Error).message });
    }
  }

  private async idle(op: string, options: ReceiveOptions): Promise<Delivery[]> {
    this.client.capability.refuseIfError(op);
    await sleep(options.waitMs, options.signal);
    return [];
  }
}
