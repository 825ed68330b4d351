import { describe, expect, it } from 'vitest';
import { envResourceNames, foldEnvResources } from './env-resources.ts';
import type { ResourceKind, ResourceStore } from './platform-services.ts';

const store = (files: Record<string, string>): ResourceStore => ({
  read: async (kind: ResourceKind, name: string) => (kind === 'env' ? files[name] : undefined),
});

describe('env resources folded into the environment (spec 2 §4.4)', () => {
  it('lets the container environment win over env resources', async () => {
    const env = await foldEnvResources({ LEVEL: 'container' }, store({ 'a.env': 'LEVEL=resource\nOTHER=x' }), ['a.env']);
    expect(env).toEqual({ LEVEL: 'container', OTHER: 'x' });
  });

  it('loads env resources in declared order, a later one overriding an earlier one', async () => {
    const files = store({ 'base.env': 'LEVEL=base\nONLY_BASE=1', 'prod.env': 'LEVEL=prod' });
    expect(await foldEnvResources({}, files, ['base.env', 'prod.env'])).toEqual({ LEVEL: 'prod', ONLY_BASE: '1' });
    expect(await foldEnvResources({}, files, ['prod.env', 'base.env'])).toEqual({ LEVEL: 'base', ONLY_BASE: '1' });
  });

  it('treats an empty value as nothing injected, at either level', async () => {
    const env = await foldEnvResources({ LEVEL: '' }, store({ 'a.env': 'LEVEL=resource\nBLANK=' }), ['a.env']);
    expect(env).toEqual({ LEVEL: 'resource' });
  });

  it('fails the start naming a missing or malformed env resource, never a value', async () => {
    await expect(foldEnvResources({}, store({}), ['gone.env'])).rejects.toThrow(/env resource "gone.env".*does not exist/);
    await expect(foldEnvResources({}, store({ 'bad.env': 'A=1\nsecret-looking garbage' }), ['bad.env'])).rejects.toThrow('env resource "bad.env" line 2: expected NAME=value');
  });

  it('reads the list from FLOW_ENV_RESOURCES, as JSON or comma-separated', () => {
    expect(envResourceNames({ FLOW_ENV_RESOURCES: '["a.env", "config/b,c.env"]' })).toEqual(['a.env', 'config/b,c.env']);
    expect(envResourceNames({ FLOW_ENV_RESOURCES: ' a.env, b.env ' })).toEqual(['a.env', 'b.env']);
    expect(envResourceNames({})).toEqual([]);
    expect(() => envResourceNames({ FLOW_ENV_RESOURCES: '[oops' })).toThrow(/not a JSON array/);
  });
});
