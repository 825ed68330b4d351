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
    ['an unknown capability', 'queue: false', /unknown capability "queue"/],
    ['an unknown field', 'kv: {maxValueSize: 3}', /unknown field kv\.maxValueSize/],
    ['a wrong type', 'kv: {maxValueBytes: "big"}', /kv\.maxValueBytes must be a number/],
    ['a bad policy', 'kv: {supported: false, unsupported: ignore}', /kv\.unsupported must be "noop" or "error"/],
    ['a leader TTL under three renew intervals', 'leaderElection: {leaseTtlSeconds: 10, renewIntervalSeconds: 5}', /at least three renewIntervalSeconds/],
    ['semantic search', 'agentMemory: {semantic: true}', /searches by text matching/],
  ])('refuses %s, naming the file and the field', (_, text, message) => {
    const path = file('bad.yaml', text);
    expect(() => loadFeaturesFile(path)).toThrow(message);
    expect(() => loadFeaturesFile(path)).toThrow(path);
  });

  it('says which file could not be read', () => {
    expect(() => loadFeaturesFile(join(dir, 'missing.yaml'))).toThrow(/cannot read the features file .*missing\.yaml/);
  });
});
