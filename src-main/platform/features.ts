import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/**
 * What the server implements and the numbers it enforces. Discovery declares exactly these, and
 * a features file (JSON or YAML) can switch any capability off or change a number, so a
 * runtime's degraded paths can be tested against a real server.
 */
export type UnsupportedPolicy = 'noop' | 'error';

interface Common {
  supported: boolean;
  /** Declared in discovery when the capability is off; the runtime applies its own default when absent. */
  unsupported?: UnsupportedPolicy;
}

export interface Features {
  kv: Common & { maxValueBytes: number };
  secrets: Common & { encryptedAtRest: boolean };
  resources: Common;
  leases: Common & { minTtlSeconds: number; maxTtlSeconds: number; defaultTtlSeconds: number };
  leaderElection: Common & { leaseTtlSeconds: number; renewIntervalSeconds: number; observeIntervalSeconds: number };
  queues: Common & {
    requestReply: boolean;
    /** Longest a receive is held, and the wait when a receive names none. */
    pollTimeoutSeconds: number;
    /** Most messages one receive returns; a larger `maxMessages` is cut to it. */
    maxBatch: number;
    /** How long a delivered message stays invisible waiting for its ack; a receive may ask for its own. */
    ackDeadlineSeconds: number;
    /** Largest JSON-encoded message body accepted by publish and request. */
    maxMessageBytes: number;
    /** Longest nack delay honoured; longer ones are cut to it. */
    maxDelaySeconds: number;
    /** Longest `timeoutSeconds` a request may wait for its reply. */
    maxRequestTimeoutSeconds: number;
  };
  topics: Common & {
    pollTimeoutSeconds: number;
    maxBatch: number;
    /** How long delivered, unacknowledged topic messages wait before the subscription gets them again. */
    ackDeadlineSeconds: number;
    /** A subscription with no receive or ack for this long expires; receive then answers 404. */
    subscriptionIdleSeconds: number;
    maxMessageBytes: number;
  };
  agentMemory: Common & {
    semantic: boolean;
    listThreads: boolean;
    readThread: boolean;
    search: boolean;
    /** Largest working memory a save accepts. */
    maxWorkingMemoryBytes: number;
  };
  /** Retention: the most records, bytes of record JSON and age kept (oldest batches go first). */
  traces: Common & { maxBatch: number; flushIntervalMillis: number; retainRecords: number; retainBytes: number; retainSeconds: number };
  logs: Common & { maxBatch: number; retainRecords: number; retainBytes: number; retainSeconds: number };
}

export type FeatureName = keyof Features;

export const defaultFeatures: Features = {
  kv: { supported: true, maxValueBytes: 1024 * 1024 },
  secrets: { supported: true, encryptedAtRest: true },
  resources: { supported: true },
  leases: { supported: true, minTtlSeconds: 1, maxTtlSeconds: 3600, defaultTtlSeconds: 15 },
  leaderElection: { supported: true, leaseTtlSeconds: 15, renewIntervalSeconds: 5, observeIntervalSeconds: 2 },
  queues: {
    supported: true,
    requestReply: true,
    pollTimeoutSeconds: 20,
    maxBatch: 100,
    ackDeadlineSeconds: 30,
    maxMessageBytes: 1024 * 1024,
    maxDelaySeconds: 12 * 3600,
    maxRequestTimeoutSeconds: 300,
  },
  topics: { supported: true, pollTimeoutSeconds: 20, maxBatch: 100, ackDeadlineSeconds: 30, subscriptionIdleSeconds: 300, maxMessageBytes: 1024 * 1024 },
  agentMemory: { supported: true, semantic: false, listThreads: true, readThread: true, search: true, maxWorkingMemoryBytes: 8 * 1024 * 1024 },
  traces: { supported: true, maxBatch: 1000, flushIntervalMillis: 1000, retainRecords: 100_000, retainBytes: 64 * 1024 * 1024, retainSeconds: 7 * 24 * 3600 },
  logs: { supported: true, maxBatch: 1000, retainRecords: 100_000, retainBytes: 32 * 1024 * 1024, retainSeconds: 7 * 24 * 3600 },
};

/** Per capability: `false` switches it off, `true` keeps the defaults, an object changes fields. */
export type FeatureOverrides = { [K in FeatureName]?: boolean | Partial<Features[K]> };

/** The effective features: defaults with the overrides applied and checked. Throws naming the bad field. */
export function resolveFeatures(overrides: FeatureOverrides = {}, source = 'features'): Features {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new Error(`${source}: expected an object of capabilities (${Object.keys(defaultFeatures).join(', ')})`);
  }
  const features = structuredClone(defaultFeatures) as unknown as Record<string, Record<string, unknown>>;
  for (const [name, override] of Object.entries(overrides)) {
    const block = features[name];
    if (!block) throw new Error(`${source}: unknown capability "${name}"; known: ${Object.keys(defaultFeatures).join(', ')}`);
    if (typeof override === 'boolean') {
      block.supported = override;
      continue;
    }
    if (typeof override !== 'object' || override === null) throw new Error(`${source}: ${name} must be true, false or an object`);
    for (const [field, value] of Object.entries(override)) {
      if (field === 'unsupported') {
        if (value !== 'noop' && value !== 'error') throw new Error(`${source}: ${name}.unsupported must be "noop" or "error", got ${JSON.stringify(value)}`);
        block.unsupported = value;
        continue;
      }
      if (!(field in block)) throw new Error(`${source}: unknown field ${name}.${field}; known: ${Object.keys(block).join(', ')}, unsupported`);
      const expected = typeof block[field];
      if (typeof value !== expected) throw new Error(`${source}: ${name}.${field} must be a ${expected}, got ${JSON.stringify(value)}`);
      if (expected === 'number' && (!Number.isInteger(value) || (value as number) < 0)) {
        throw new Error(`${source}: ${name}.${field} must be an integer >= 0, got ${JSON.stringify(value)}`);
      }
      block[field] = value;
    }
  }
  const resolved = features as unknown as Features;
  checkCoherent(resolved, source);
  return resolved;
}

function checkCoherent(f: Features, source: string): void {
  const { leases, leaderElection, agentMemory } = f;
  if (leases.minTtlSeconds < 1 || leases.minTtlSeconds > leases.maxTtlSeconds) {
    throw new Error(`${source}: leases need 1 <= minTtlSeconds <= maxTtlSeconds (got ${leases.minTtlSeconds} and ${leases.maxTtlSeconds})`);
  }
  // §8: the TTL must cover three renew intervals (the runtime shortens a renew interval above a third of it).
  if (leaderElection.renewIntervalSeconds < 1 || leaderElection.leaseTtlSeconds < 3 * leaderElection.renewIntervalSeconds) {
    throw new Error(
      `${source}: leaderElection.leaseTtlSeconds (${leaderElection.leaseTtlSeconds}) must be at least three renewIntervalSeconds (${leaderElection.renewIntervalSeconds}), and renewIntervalSeconds at least 1`,
    );
  }
  if (agentMemory.semantic) throw new Error(`${source}: agentMemory.semantic cannot be true: this server searches by text matching`);
  for (const name of ['queues', 'topics', 'traces', 'logs'] as const) {
    if (f[name].maxBatch < 1) throw new Error(`${source}: ${name}.maxBatch must be at least 1`);
  }
  if (f.queues.ackDeadlineSeconds < 1 || f.topics.ackDeadlineSeconds < 1) throw new Error(`${source}: ackDeadlineSeconds must be at least 1`);
}

/** Reads a features file; YAML is a superset of JSON, so one parser reads both. */
export function loadFeaturesFile(path: string): Features {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the features file ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (err) {
    throw new Error(`${path}: not valid YAML or JSON: ${(err as Error).message}`);
  }
  return resolveFeatures((parsed ?? {}) as FeatureOverrides, path);
}

/** True when every capability is off: discovery then answers 501, "nothing implemented". */
export function nothingImplemented(f: Features): boolean {
  return Object.values(f).every((block) => !block.supported);
}
