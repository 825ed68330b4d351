import { sleepOn, systemClock, type Clock } from '../../../shared/clock.ts';
import type { Static } from '@sinclair/typebox';
import type { Discovery as DiscoveryDocument } from '../../../shared/platform-api/discovery.ts';
import { getDiscovery, kvGet } from '../../../shared/platform-api/route-addresses.ts';
import type { Logger } from '../core/logger.ts';
import type { PlatformTransport } from './api-http.ts';
import { CAPABILITY_NAMES, type CapabilityName, type UnsupportedPolicy } from './capability.ts';
import { PlatformError } from './platform-error.ts';
import { callRoute, responseJson } from './route-call.ts';

/** The contract version this runtime speaks (spec 1 §9). */
export const SPEC_VERSION = '1.0';

/** The feature blocks as the contract declares them (shared/platform-api/discovery.ts). */
export type DeclaredFeatures = NonNullable<Static<typeof DiscoveryDocument>['features']>;

/** One feature block: the common fields plus whatever numbers and flags the capability has. */
export interface FeatureBlock {
  supported: boolean;
  unsupported?: UnsupportedPolicy;
  [field: string]: unknown;
}

export interface Discovery {
  /** False when discovery answered 501: nothing is implemented, every capability degrades. */
  implemented: boolean;
  specVersion?: string;
  implementation?: { name?: string; version?: string };
  features: Partial<Record<CapabilityName, FeatureBlock>>;
}

export interface DiscoveryOptions {
  budgetMs: number;
  /** First retry delay; it doubles up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** The budget and the backoff between attempts run on it. */
  clock?: Clock;
}

/**
 * GET /v1/discovery, retried with backoff while the platform is unreachable or answers a
 * transient failure, for at most the budget (spec 1 §7). A refusal that waiting cannot fix (401,
 * 404) fails at once so a wrong token or URL is reported without a 30-second pause.
 */
export async function discover(transport: PlatformTransport, baseUrl: string, options: DiscoveryOptions, log: Logger): Promise<Discovery> {
  const clock = options.clock ?? systemClock;
  const deadline = clock.now() + options.budgetMs;
  let delay = options.initialDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 2000;
  let attempt = 0;
  for (;;) {
    attempt++;
    let failure: Error;
    try {
      const res = await callRoute(transport, getDiscovery, { timeoutMs: Math.max(1000, Math.min(10_000, deadline - clock.now())) });
      if (res.status === 200) {
        let doc;
        try {
          doc = responseJson(res, getDiscovery, 200);
        } catch {
          // Something else answers at that address (a web page, a proxy's landing page): waiting
          // will not turn it into a platform, so this fails at once like a 404.
          const notJson = new PlatformError(res.route, 200, res.body, `discovery at ${baseUrl}`);
          notJson.message += ` (${res.header('content-type') ?? 'no Content-Type'}, not JSON: is FLOW_PLATFORM_API_URL the platform server's address?)`;
          throw notJson;
        }
        return parseDiscovery(doc, log);
      }
      if (res.status === 501) return { implemented: false, features: {} };
      const refused = new PlatformError(res.route, res.status, res.body, `discovery at ${baseUrl}`);
      if (!transient(res.status)) throw withHint(refused, res.status);
      failure = refused;
    } catch (err) {
      if (err instanceof PlatformError) throw err;
      failure = err as Error;
    }
    const left = deadline - clock.now();
    if (left <= 0) {
      throw new Error(`the platform at ${baseUrl} did not answer discovery within ${Math.round(options.budgetMs / 1000)} s (${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}): ${failure.message}. Start it, fix FLOW_PLATFORM_API_URL, or raise FLOW_PLATFORM_API_DISCOVERY_BUDGET`);
    }
    if (attempt === 1 || attempt % 10 === 0) log.warn('platform discovery failed; retrying', { url: baseUrl, attempt, error: failure.message });
    await sleepOn(clock, Math.min(delay, left));
    delay = Math.min(delay * 2, maxDelay);
  }
}

/**
 * Discovery needs no token (spec 1 §4.1), so it cannot tell a wrong or missing token from a right
 * one. One KV read, the one route every implementation serves, does: a 401 or 403 fails the start
 * at once, as a refused discovery would, instead of a runtime that starts and fails every call.
 * Any other answer (a miss, 501, a transient failure) leaves the start to go on.
 */
export async function checkCredentials(transport: PlatformTransport, baseUrl: string, discovery: Discovery): Promise<void> {
  if (!discovery.implemented) return;
  let res;
  try {
    res = await callRoute(transport, kvGet, { params: { namespace: 'system' }, query: { key: 'flow-runtime/credentials-check' }, timeoutMs: 10_000 });
  } catch {
    return; // unreachable now: the calls that need it report it then
  }
  if (res.status === 401 || res.status === 403) throw withHint(new PlatformError(res.route, res.status, res.body, `credentials check at ${baseUrl}`), res.status);
}

function transient(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

function withHint(err: PlatformError, status: number): Error {
  if (status === 401 || status === 403) {
    err.message += ' (check FLOW_PLATFORM_API_TOKEN, FLOW_PLATFORM_API_TOKEN_FILE or FLOW_PLATFORM_API_HEADERS)';
  } else if (status === 404) {
    err.message += ' (is FLOW_PLATFORM_API_URL the server root, without /v1?)';
  }
  return err;
}

/**
 * Unknown fields and features are ignored (spec 1 §9); a malformed block reads as unsupported.
 * Typed as the contract declares the document, read as any platform might send it.
 */
export function parseDiscovery(doc: Static<typeof DiscoveryDocument> | undefined, log: Logger): Discovery {
  const d = (doc && typeof doc === 'object' ? doc : {}) as Record<string, unknown>;
  const specVersion = typeof d.specVersion === 'string' ? d.specVersion : undefined;
  if (specVersion !== SPEC_VERSION) {
    log.warn(`the platform speaks delegation API ${specVersion ?? '(no specVersion)'}; this runtime speaks ${SPEC_VERSION}. Continuing: unknown fields are ignored`, {
      specVersion,
    });
  }
  const impl = d.implementation && typeof d.implementation === 'object' ? (d.implementation as Record<string, unknown>) : undefined;
  const rawFeatures = d.features && typeof d.features === 'object' ? (d.features as Record<string, unknown>) : {};
  const features: Discovery['features'] = {};
  for (const name of CAPABILITY_NAMES) {
    const block = rawFeatures[name];
    if (!block || typeof block !== 'object') continue;
    const b = block as Record<string, unknown>;
    const unsupported = b.unsupported === 'noop' || b.unsupported === 'error' ? b.unsupported : undefined;
    features[name] = { ...b, supported: b.supported === true, unsupported };
  }
  return {
    implemented: true,
    specVersion,
    implementation: impl ? { name: str(impl.name), version: str(impl.version) } : undefined,
    features,
  };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A feature block's fields by the names the contract declares for that capability. */
export type DeclaredBlock<C extends keyof DeclaredFeatures> = Omit<Partial<NonNullable<DeclaredFeatures[C]>>, 'supported' | 'unsupported'> & Pick<FeatureBlock, 'supported' | 'unsupported'>;

/** A numeric field of a feature block, or the fallback when absent or not a positive number. */
export function featureNumber<B extends object>(block: B | undefined, field: keyof B & string, fallback: number): number {
  const v: unknown = block?.[field];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

export function featureFlag<B extends object>(block: B | undefined, field: keyof B & string): boolean {
  return block?.[field] === true;
}
