import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultFeatures, loadFeaturesFile, resolveFeatures } from './features.ts';

const dir = mkdtempSync(join(tmpdir(), 'flow-features-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('features', () => {
  it('defaults to every capability on with the spec\'s leader timings', () => {
    expect(resolveFeatures()).toEqual(defaultFeatures);
    expect(defaultFeatures.leaderElection).toMatchObject({ leaseTtlSeconds: 15, renewIntervalSeconds: 5, observeIntervalSeconds: 2 });
  });

  it('reads JSON and YAML files', () => {
    expect(loadFeaturesFile(file('f.json', '{"kv": false, "queues": {"ackDeadlineSeconds": 5}}'))).toMatchObject({
      kv: { supported: false },
      queues: { supported: true, ackDeadlineSeconds: 5 },
    });
    expect(loadFeaturesFile(file('f.yaml', 'leases:\n  supported: false\n  unsupported: noop\n')).leases).toMatchObject({ supported: false, unsupported: 'noop' });
  });

  it.each([
    ['an unknown capability', 'queue: false', 'unknown capability "queue"; known: kv, secrets, resources, leases, leaderElection, queues, topics, agentMemory, traces, logs'],
    ['an unknown field', 'kv: {maxValueSize: 3}', 'unknown field "kv.maxValueSize"; kv has supported, unsupported, maxValueBytes'],
    ['a wrong type', 'kv: {maxValueBytes: "big"}', '"kv.maxValueBytes" must be an integer >= 0, got "big"'],
    ['a fraction', 'queues: {pollTimeoutSeconds: 1.5}', '"queues.pollTimeoutSeconds" must be an integer >= 0, got 1.5'],
    ['a negative number', 'topics: {maxMessageBytes: -1}', '"topics.maxMessageBytes" must be an integer >= 0, got -1'],
    ['an empty batch', 'queues: {maxBatch: 0}', '"queues.maxBatch" must be an integer >= 1, got 0'],
    ['a zero ack deadline', 'topics: {ackDeadlineSeconds: 0}', '"topics.ackDeadlineSeconds" must be an integer >= 1, got 0'],
    ['a switch that is not true or false', 'kv: {supported: "no"}', '"kv.supported" must be true or false, got "no"'],
    ['a capability that is neither a switch nor an object', 'kv: 5', '"kv" must be true, false or an object of kv\'s fields, got 5'],
    ['a bad policy', 'kv: {supported: false, unsupported: ignore}', '"kv.unsupported" must be one of noop, error, got "ignore"'],
    ['a file that is not an object', '- kv', 'expected an object of capabilities (kv, secrets, resources, leases, leaderElection, queues, topics, agentMemory, traces, logs), got an array'],
    ['a minimum TTL above the maximum', 'leases: {minTtlSeconds: 60, maxTtlSeconds: 30}', 'leases need minTtlSeconds <= maxTtlSeconds (got 60 and 30)'],
    ['a leader TTL under three renew intervals', 'leaderElection: {leaseTtlSeconds: 10, renewIntervalSeconds: 5}', 'must be at least three renewIntervalSeconds'],
    ['semantic search', 'agentMemory: {semantic: true}', 'searches by text matching'],
  ])('refuses %s, naming the file and the field', (_, text, message) => {
    const path = file('bad.yaml', text);
    expect(() => loadFeaturesFile(path)).toThrow(`${path}: `);
    expect(() => loadFeaturesFile(path)).toThrow(message);
  });

  it('keeps accepting what it always did: zeros where a count may be zero, switches, policies', () => {
    const features = loadFeaturesFile(file('ok.yaml', 'leases: {defaultTtlSeconds: 0}\nleaderElection: {observeIntervalSeconds: 0}\ntraces: true\nlogs: {supported: false, unsupported: error}\n'));
    expect(features).toMatchObject({ leases: { defaultTtlSeconds: 0 }, leaderElection: { observeIntervalSeconds: 0 }, traces: defaultFeatures.traces, logs: { supported: false, unsupported: 'error' } });
    expect(loadFeaturesFile(file('empty.yaml', ''))).toEqual(defaultFeatures);
  });

  it('checks overrides passed in code the same way, naming them "features"', () => {
    expect(() => resolveFeatures({ queues: { maxBatch: 0 } })).toThrow('features: "queues.maxBatch" must be an integer >= 1, got 0');
  });

  it('says which file could not be read', () => {
    expect(() => loadFeaturesFile(join(dir, 'missing.yaml'))).toThrow(/cannot read the features file .*missing\.yaml/);
  });
});
