import type { Clock } from '../../../shared/clock.ts';
import type { Logger } from '../core/logger.ts';
import { AgentMemoryClient } from './agent-memory-client.ts';
import type { Identity } from './api-config.ts';
import type { PlatformTransport } from './api-http.ts';
import { Capability, CAPABILITY_NAMES, defaultPolicy, type CapabilityName, type CapabilityStatus } from './capability.ts';
import { featureFlag, featureNumber, type DeclaredBlock, type DeclaredFeatures, type Discovery } from './discovery.ts';
import { KvClient } from './kv-client.ts';
import { DEFAULT_LEADER_TIMINGS, LeaderClient } from './leader-client.ts';
import { LeaseClient } from './lease-client.ts';
import type { PlatformServices } from './platform-services.ts';
import { QueueClient } from './queue-client.ts';
import { ResourcesClient } from './resources-client.ts';
import { SecretsClient } from './secrets-client.ts';
import { PlatformTelemetry, type TelemetryOptions } from './telemetry.ts';
import { TopicClient } from './topic-client.ts';

export interface AssembleOptions {
  transport: PlatformTransport;
  /** Undefined for a runtime with no platform configured. */
  discovery: Discovery | undefined;
  identity: Identity;
  log: Logger;
  implementation: string;
  /** Shipping bounds; tests shrink them. */
  telemetry?: Partial<TelemetryOptions>;
  /** `FLOW_SNAPSHOT_ID`: resources are read from this frozen snapshot. */
  snapshotId?: string;
  /** Lease renewals and leader campaigns run on it; default the system clock. */
  clock?: Clock;
}

/** What a services instance offers beyond the interface, for the CLI, the studio and tests. */
export interface AssembledServices extends PlatformServices {
  readonly telemetry: PlatformTelemetry;
}

/** Default bound of the trace export queue (about 4 MB of records): a burst beyond it is dropped and counted. */
export const DEFAULT_TRACE_QUEUE = 20_000;

/** Default bound of the log shipping queue: a burst beyond it is dropped, never held. */
export const DEFAULT_LOG_QUEUE = 2000;

/**
 * Builds every capability client from a discovery document, each behind its switch: a
 * capability the platform lacks degrades or refuses per its unsupported policy (spec 1 §2.3).
 */
export function assembleServices(o: AssembleOptions): AssembledServices {
  const { discovery, transport: http, identity, log } = o;
  const caps = new Map<CapabilityName, Capability>();
  for (const name of CAPABILITY_NAMES) {
    const block = discovery?.features[name];
    const supported = block?.supported === true;
    caps.set(name, new Capability(name, supported, block?.unsupported ?? defaultPolicy(name), reasonOff(name, discovery), log, discovery !== undefined));
  }
  const cap = (name: CapabilityName): Capability => caps.get(name)!;
  // Typed by the contract's feature blocks, so a field renamed there breaks the reads below.
  const f = <C extends CapabilityName & keyof DeclaredFeatures>(name: C) => discovery?.features[name] as DeclaredBlock<C> | undefined;

  const kv = new KvClient(http, cap('kv'), cap('secrets'), numberOrUndefined(f('kv')?.maxValueBytes));
  const leader = new LeaderClient(
    http,
    cap('leaderElection'),
    identity,
    {
      ttlMs: featureNumber(f('leaderElection'), 'leaseTtlSeconds', DEFAULT_LEADER_TIMINGS.ttlMs / 1000) * 1000,
      renewMs: featureNumber(f('leaderElection'), 'renewIntervalSeconds', DEFAULT_LEADER_TIMINGS.renewMs / 1000) * 1000,
      observeMs: featureNumber(f('leaderElection'), 'observeIntervalSeconds', DEFAULT_LEADER_TIMINGS.observeMs / 1000) * 1000,
    },
    log,
    o.clock,
  );
  const telemetry = new PlatformTelemetry(
    http,
    cap('traces'),
    cap('logs'),
    identity,
    {
      traceMaxBatch: featureNumber(f('traces'), 'maxBatch', 500),
      traceMaxQueue: DEFAULT_TRACE_QUEUE,
      traceFlushIntervalMs: featureNumber(f('traces'), 'flushIntervalMillis', 1000),
      logMaxBatch: featureNumber(f('logs'), 'maxBatch', 500),
      logMaxQueue: DEFAULT_LOG_QUEUE,
      logFlushIntervalMs: 1000,
      ...o.telemetry,
    },
    log,
  );
  if (cap('secrets').usable && f('secrets')?.encryptedAtRest !== true) {
    log.warn('the platform does not claim to encrypt secrets at rest (features.secrets.encryptedAtRest is absent); secrets read through it may be stored in plain form');
  }

  let closed = false;
  const services: AssembledServices = {
    implementation: o.implementation,
    identity,
    kv,
    secrets: new SecretsClient(kv, cap('secrets')),
    resources: new ResourcesClient(http, cap('resources'), o.snapshotId),
    leases: new LeaseClient(
      http,
      cap('leases'),
      identity,
      { minTtlSeconds: numberOrUndefined(f('leases')?.minTtlSeconds), maxTtlSeconds: numberOrUndefined(f('leases')?.maxTtlSeconds) },
      log,
      o.clock,
    ),
    leader,
    queues: new QueueClient(http, cap('queues'), identity, {
      requestReply: featureFlag(f('queues'), 'requestReply'),
      pollTimeoutMs: featureNumber(f('queues'), 'pollTimeoutSeconds', 20) * 1000,
      maxBatch: featureNumber(f('queues'), 'maxBatch', 10),
    }),
    topics: new TopicClient(http, cap('topics'), identity, {
      pollTimeoutMs: featureNumber(f('topics'), 'pollTimeoutSeconds', 20) * 1000,
      maxBatch: featureNumber(f('topics'), 'maxBatch', 10),
    }, log),
    agentMemory: new AgentMemoryClient(http, cap('agentMemory'), {
      semantic: featureFlag(f('agentMemory'), 'semantic'),
      listThreads: featureFlag(f('agentMemory'), 'listThreads'),
      readThread: featureFlag(f('agentMemory'), 'readThread'),
      search: featureFlag(f('agentMemory'), 'search'),
    }),
    telemetry,
    capability: (name): CapabilityStatus => cap(name).status(),
    refusalAtLoad(name, what) {
      const c = cap(name);
      if (!c.known || c.usable || c.policy !== 'error') return undefined;
      return (
        `${what} needs the platform capability "${name}", which is off (${c.reason}; unsupported: error). ` +
        `Use a platform that provides it, or, for a deployment that runs a single instance, declare unsupported: noop for ${name}`
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await telemetry.close();
      await http.close();
    },
  };
  return services;
}

/** The startup log line's view: each capability's state in a word or two. */
export function describeCapabilities(services: PlatformServices): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CAPABILITY_NAMES) {
    const s = services.capability(name);
    out[name] = s.usable ? 'supported' : `off (${s.reason}; unsupported: ${s.policy})`;
  }
  return out;
}

function reasonOff(name: CapabilityName, discovery: Discovery | undefined): string {
  if (!discovery) return 'no platform is configured: set RUNTIME_SERVICES_MODULE=api and FLOW_PLATFORM_API_URL';
  if (!discovery.implemented) return 'discovery answered 501: the platform implements nothing';
  if (!discovery.features[name]) return `discovery declares no features.${name}`;
  return `features.${name}.supported is false`;
}

function numberOrUndefined(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
