import { describe, expect, it } from 'vitest';
import { loadRegistry, registryNaming } from './components.ts';
import { LoadError, formatProblem } from './core/errors.ts';
import { startRuntime } from './start-runtime.ts';

const identity = { deploymentId: 'local', instanceId: 'test' };
const typesOf = (r: Awaited<ReturnType<typeof loadRegistry>>) => ({ blocks: [...r.blocks.keys()], connectors: [...r.connectors.keys()], sources: [...r.sources.keys()] });

describe('components, loaded on first use', () => {
  it('lists every component under the type it declares', async () => {
    const every = typesOf(await loadRegistry());
    expect(every.connectors).toEqual(['http', 'notes', 'http-client', 'docstore']);
    expect(every.sources).toEqual(['http', 'queue', 'topic', 'schedule']);
    expect(every.blocks).toContain('kv-get');
    expect(every.blocks).toHaveLength(32);
  });

  it('loads for a definition the components it names, as block keys and type values', async () => {
    const named = await registryNaming([
      { file: 'a.yaml', text: 'connectors:\n  web: {type: http, port: 0}\nflows:\n  f:\n    source: {type: queue, subject: orders}\n    steps:\n      - kv-get: {namespace: n, key: k}\n      - set: {body: \'"ok"\'}\n' },
    ]);
    expect(typesOf(named)).toEqual({ blocks: ['set', 'kv-get'], connectors: ['http'], sources: ['http', 'queue'] });
  });

  it('starts a runtime whose only mention of a block is a YAML escape, by loading every component', async () => {
    const started = await startRuntime({
      definitions: [{ file: 'a.yaml', text: 'flows:\n  echo:\n    steps:\n      - "s\\x65t": {body: \'"ok"\'}\n' }],
      variables: {},
      identity,
    });
    try {
      expect(await started.runtime.run('echo', {})).toMatchObject({ outcome: 'completed', message: { body: 'ok' } });
    } finally {
      await started.stop();
    }
  });

  it('tells an unknown type\'s nearest known one among every component, not only among those the definition names', async () => {
    const failure = await startRuntime({
      definitions: [{ file: 'a.yaml', text: 'flows:\n  f:\n    steps:\n      - kv-gett: {namespace: n, key: k}\n' }],
      variables: {},
      identity,
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(LoadError);
    expect((failure as LoadError).problems.map(formatProblem).join('\n')).toContain('unknown block "kv-gett"; did you mean "kv-get"?');
  });
});
