import { readFileSync } from 'node:fs';
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Errors, ValueErrorType } from '@sinclair/typebox/errors';
import { parse as parseYaml } from 'yaml';
import { FeatureOverridesSchema, FeaturesSchema, type FeatureName, type FeatureOverrides, type Features } from './features-schema.ts';
import { describe } from './http/request-validation.ts';

/**
 * What the server implements and the numbers it enforces. Discovery declares exactly these, and
 * a features file (JSON or YAML) can switch any capability off or change a number, so a
 * runtime's degraded paths can be tested against a real server. The shape and the rules of
 * each field are features-schema.ts; the defaults and the rules across fields are here.
 */
export type { FeatureName, FeatureOverrides, Features, UnsupportedPolicy } from './features-schema.ts';

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

// Compiled when there are overrides to check: a platform started with none (every embedded one)
// does without.
let checkOverrides: TypeCheck<typeof FeatureOverridesSchema> | undefined;
const noOverrides = (overrides: unknown): boolean => overrides !== null && typeof overrides === 'object' && !Array.isArray(overrides) && Object.getPrototypeOf(overrides) === Object.prototype && Object.keys(overrides).length === 0;

/** The effective features: defaults with the overrides applied and checked. Throws naming the source and the bad field. */
export function resolveFeatures(overrides: FeatureOverrides = {}, source = 'features'): Features {
  if (!noOverrides(overrides)) {
    checkOverrides ??= TypeCompiler.Compile(FeatureOverridesSchema);
    if (!checkOverrides.Check(overrides)) throw new Error(`${source}: ${overrideError(overrides)}`);
  }
  const features = structuredClone(defaultFeatures);
  for (const [name, override] of Object.entries(overrides) as Array<[FeatureName, FeatureOverrides[FeatureName]]>) {
    if (override === undefined) continue;
    Object.assign(features[name], typeof override === 'boolean' ? { supported: override } : override);
  }
  checkCoherent(features, source);
  return features;
}

/** The first thing wrong with the overrides, naming the field by its path (e.g. "queues.maxBatch"). */
function overrideError(overrides: unknown): string {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    return `expected an object of capabilities (${capabilities.join(', ')}), got ${shown(overrides)}`;
  }
  const error = firstError(FeatureOverridesSchema, overrides, '');
  if (!error) return 'does not match the features schema';
  const { path, schema, value } = error;
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const dot = path.lastIndexOf('.');
    if (dot === -1) return `unknown capability "${path}"; known: ${capabilities.join(', ')}`;
    const block = path.slice(0, dot) as FeatureName;
    return `unknown field "${path}"; ${block} has ${Object.keys(FeaturesSchema.properties[block].properties).join(', ')}`;
  }
  return `"${path}" must be ${describe(schema)}, got ${shown(value)}`;
}

const capabilities = Object.keys(FeaturesSchema.properties);

/**
 * The first error at its deepest: a capability is `true`, `false` or an object, and when it is
 * an object the error inside it (the field and its rule) is the one worth telling.
 */
function firstError(schema: TSchema, value: unknown, prefix: string): { type: ValueErrorType; path: string; schema: TSchema; value: unknown } | undefined {
  const error = Errors(schema, value).First();
  if (!error) return undefined;
  const path = prefix + error.path.split('/').slice(1).join('.');
  const objectBranch = (error.schema.anyOf as TSchema[] | undefined)?.find((s) => s[Kind] === 'Object');
  if (error.type === ValueErrorType.Union && objectBranch && typeof error.value === 'object' && error.value !== null && !Array.isArray(error.value)) {
    return firstError(objectBranch, error.value, `${path}.`);
  }
  return { type: error.type, path, schema: error.schema, value: error.value };
}

/** A value from a features file as the person wrote it: it holds no secret. */
function shown(value: unknown): string {
  return Array.isArray(value) ? 'an array' : (JSON.stringify(value) ?? 'nothing').slice(0, 60);
}

/** The rules across fields, which the schema of one field cannot say. */
function checkCoherent(f: Features, source: string): void {
  const { leases, leaderElection, agentMemory } = f;
  if (leases.minTtlSeconds > leases.maxTtlSeconds) {
    throw new Error(`${source}: leases need minTtlSeconds <= maxTtlSeconds (got ${leases.minTtlSeconds} and ${leases.maxTtlSeconds})`);
  }
  // §8: the TTL must cover three renew intervals (the runtime shortens a renew interval above a third of it).
  if (leaderElection.leaseTtlSeconds < 3 * leaderElection.renewIntervalSeconds) {
    throw new Error(`${source}: leaderElection.leaseTtlSeconds (${leaderElection.leaseTtlSeconds}) must be at least three renewIntervalSeconds (${leaderElection.renewIntervalSeconds})`);
  }
  if (agentMemory.semantic) throw new Error(`${source}: agentMemory.semantic cannot be true: this server searches by text matching`);
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
