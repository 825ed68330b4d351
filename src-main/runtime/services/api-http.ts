import type { Capability } from './capability.ts';
import { PlatformUnreachableError } from './platform-error.ts';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface PlatformRequest {
  method: HttpMethod;
  /** Path under the base URL with parameters already percent-encoded, e.g. `/v1/kv/user/entry`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** A JSON body, or opaque bytes for KV and working memory. */
  json?: unknown;
  /** A JSON body already serialized (telemetry batches, masked as text). */
  jsonText?: string;
  bytes?: Uint8Array;
  /** Longest wait for the whole answer; long polls pass their window plus a margin. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A 501 answer turns this capability off for the life of the process (spec 1 rule 1). */
  capability?: Capability;
}

export interface PlatformResponse {
  status: number;
  /** `GET /v1/kv/{namespace}/entry`: the route without its query, for errors and logs. */
  route: string;
  header(name: string): string | undefined;
  body: Uint8Array;
  json<T = unknown>(): T;
}

/** What every capability client calls; the offline form answers nothing for a runtime without a platform. */
export interface PlatformTransport {
  call(req: PlatformRequest): Promise<PlatformResponse>;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** The transport of a runtime with no platform: capabilities are off, so nothing calls it. */
export const offlineTransport: PlatformTransport = {
  async call(req) {
    throw new PlatformUnreachableError(`${req.method} ${req.path}`, new Error('no platform is configured'));
  },
  async close() {},
};

/** A path segment, percent-encoded so a subject or key with `/` stays one segment. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** An int64 header such as X-Object-Version; 0 when absent or unreadable. */
export function intHeader(res: PlatformResponse, name: string): number {
  const v = Number(res.header(name));
  return Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

/** `X-Object-Version` as sent: 0 (or absent) creates, a positive value must match. */
export function versionHeader(version: number | undefined): Record<string, string> {
  return version === undefined ? {} : { 'x-object-version': String(version) };
}
