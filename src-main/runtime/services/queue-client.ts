import type { Identity } from './api-config.ts';
import type { ApiRoute, RouteAddress, JsonResponse } from '../../../shared/platform-api/contract.ts';
import { queueAck, queueExtend, queueNack, queuePublish, queueReceive, queueReply, queueRequest } from '../../../shared/platform-api/route-addresses.ts';
import type { PlatformResponse, PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import { parseDeliveries, sleep } from './deliveries.ts';
import { PlatformError } from './platform-error.ts';
import type { Delivery, QueueReply, QueueService, ReceiveOptions } from './platform-services.ts';
import { callRoute, responseJson, type RouteCall } from './route-call.ts';

export interface QueueLimits {
  requestReply: boolean;
  pollTimeoutMs: number;
  maxBatch: number;
}

/** A request that got no reply: 503 nobody consumes the subject, 504 the timeout passed. */
export class QueueRequestError extends Error {
  constructor(
    readonly status: 503 | 504,
    message: string,
  ) {
    super(message);
    this.name = 'QueueRequestError';
  }
}

/**
 * Queues over /v1/queues (spec 1 §3.3, §4.3): point-to-point work shared by the replicas of one
 * deployment, which all receive as one consumer group (the deployment id). Publish is never
 * retried; request/reply is refused up front when the platform did not declare it.
 */
export class QueueClient implements QueueService {
  readonly requestReply: boolean;
  readonly pollTimeoutMs: number;
  readonly maxBatch: number;
  private noExtend = false;

  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly identity: Identity,
    limits: QueueLimits,
  ) {
    this.requestReply = limits.requestReply;
    this.pollTimeoutMs = limits.pollTimeoutMs;
    this.maxBatch = limits.maxBatch;
  }

  async publish(subject: string, body: unknown, headers?: Record<string, string>): Promise<void> {
    const op = `queue publish ${subject}`;
    if (!this.cap.usable) throw this.cap.unavailable(op);
    const res = await this.send(queuePublish, { params: { subject }, json: { body, headers } });
    if (res.status === 202 || res.status === 200) return;
    if (res.status === 501) throw this.cap.unavailable(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async request(subject: string, body: unknown, options: { timeoutMs: number; headers?: Record<string, string> }): Promise<QueueReply> {
    const op = `queue request ${subject}`;
    if (!this.cap.usable) throw this.cap.unavailable(op);
    if (!this.requestReply) {
      throw new Error(`${op}: the platform does not implement request/reply (features.queues.requestReply is false); publish and consume a reply subject instead`);
    }
    const timeoutSeconds = options.timeoutMs / 1000;
    const res = await this.send(queueRequest, { params: { subject }, json: { body, headers: options.headers, timeoutSeconds }, timeoutMs: options.timeoutMs + 5000 });
    if (res.status === 200) return replyBody(res);
    if (res.status === 503) throw new QueueRequestError(503, `${op}: nobody is consuming "${subject}" (503)`);
    if (res.status === 504) throw new QueueRequestError(504, `${op}: no reply within ${timeoutSeconds} s (504)`);
    if (res.status === 501) throw this.cap.unavailable(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async receive(subject: string, options: ReceiveOptions): Promise<Delivery[]> {
    const op = `queue receive ${subject}`;
    if (!this.cap.usable) return this.idle(op, options);
    const res = await this.send(queueReceive, {
      params: { subject },
      json: { waitSeconds: options.waitMs / 1000, maxMessages: options.maxMessages, consumerGroup: this.identity.deploymentId },
      timeoutMs: options.waitMs + 10_000,
      signal: options.signal,
    });
    if (res.status === 200) return parseDeliveries(responseJson(res, queueReceive, 200));
    if (res.status === 204) return [];
    if (res.status === 501) return this.idle(op, options);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async ack(subject: string, handles: string[]): Promise<void> {
    const op = `queue ack ${subject}`;
    if (!this.cap.usable) return this.cap.refuseIfError(op);
    this.settled(op, await this.send(queueAck, { params: { subject }, json: { handles, consumerGroup: this.identity.deploymentId } }));
  }

  async nack(subject: string, handles: string[], delayMs: number): Promise<void> {
    const op = `queue nack ${subject}`;
    if (!this.cap.usable) return this.cap.refuseIfError(op);
    this.settled(op, await this.send(queueNack, { params: { subject }, json: { handles, consumerGroup: this.identity.deploymentId, delaySeconds: delayMs / 1000 } }));
  }

  async extend(subject: string, handles: string[], seconds: number): Promise<boolean> {
    if (!this.cap.usable || this.noExtend) return false;
    const res = await this.send(queueExtend, { params: { subject }, json: { handles, consumerGroup: this.identity.deploymentId, seconds } });
    if (res.status === 204 || res.status === 200) return true;
    // A platform that only speaks spec 1 has no such route: the delivery keeps its own deadline.
    if (res.status === 404 || res.status === 501 || res.status === 405) this.noExtend = true;
    return false;
  }

  async reply(replyTo: string, body: unknown, headers?: Record<string, string>): Promise<void> {
    const op = 'queue reply';
    if (!this.cap.usable) throw this.cap.unavailable(op);
    const res = await this.send(queueReply, { json: { replyTo, body, headers } });
    if (res.status === 204 || res.status === 200 || res.status === 202) return;
    if (res.status === 501) throw this.cap.unavailable(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  private settled(op: string, res: PlatformResponse): void {
    if (res.status === 204 || res.status === 200) return;
    if (res.status === 501) return this.cap.refuseIfError(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  /** `unsupported: noop`: nothing to receive. Waiting out the window keeps a loop from spinning. */
  private async idle(op: string, options: ReceiveOptions): Promise<Delivery[]> {
    this.cap.refuseIfError(op);
    await sleep(options.waitMs, options.signal);
    return [];
  }

  private send<R extends ApiRoute>(route: RouteAddress<R>, call: RouteCall<R>): Promise<PlatformResponse> {
    return callRoute(this.http, route, { ...call, capability: this.cap });
  }
}

/** The reply as the platform relays it: `{body, headers}`. */
function replyBody(res: PlatformResponse): QueueReply {
  if (res.body.length === 0) return { body: null, headers: {} };
  const parsed: Partial<JsonResponse<typeof queueRequest, 200>> = responseJson(res, queueRequest, 200);
  const headers: Record<string, string> = {};
  if (parsed.headers && typeof parsed.headers === 'object') {
    for (const [k, v] of Object.entries(parsed.headers)) if (typeof v === 'string') headers[k] = v;
  }
  return { body: parsed.body ?? null, headers };
}
