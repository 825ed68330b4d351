import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../runtime/index.ts';
import { designReference } from './design-reference.ts';
import { editorSchema } from './editor-schema.ts';

const registry = await loadRegistry();

describe('the design reference', () => {
  const ref = designReference(registry);

  it('lists every registered connector, source and block with its settings', () => {
    const names = (kind: string) => ref.components.filter((c) => c.kind === kind).map((c) => c.type);
    expect(names('connector').sort()).toEqual([...registry.connectors.keys()].sort());
    expect(names('source').sort()).toEqual([...registry.sources.keys()].sort());
    expect(names('block').sort()).toEqual([...registry.blocks.keys()].sort());
    const rest = ref.components.find((c) => c.type === 'rest')!;
    expect(rest.settings.connector).toMatchObject({ type: 'string', required: true, connectorType: 'http-client' });
    expect(ref.flowSettings.onError.type).toBe('steps');
  });

  it('carries the generated shared/flow-definition.schema.json, with every connector and source type listed for completion', () => {
    const generated = JSON.parse(readFileSync(new URL('../../../shared/flow-definition.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    expect(ref.schema).toEqual(editorSchema(generated));
    const connectorType = (ref.schema as { properties: { connectors: { additionalProperties: { properties: { type: { enum: string[] } } } } } }).properties.connectors.additionalProperties.properties.type;
    expect(connectorType.enum.sort()).toEqual([...registry.connectors.keys()].sort());
    const { properties: _added, ...rest } = (ref.schema as { properties: { connectors: { additionalProperties: Record<string, unknown> } } }).properties.connectors.additionalProperties;
    expect(rest).toEqual((generated as { properties: { connectors: { additionalProperties: unknown } } }).properties.connectors.additionalProperties);
  });

  it('lists the CEL standard functions and macros and ours, methods with what they are called on', () => {
    const fn = (name: string) => ref.celFunctions.find((f) => f.name === name);
    expect(fn('size')).toMatchObject({ kind: 'function' });
    expect(fn('has')).toMatchObject({ kind: 'function', description: expect.stringContaining('present') });
    expect(fn('startsWith')).toMatchObject({ kind: 'method', receiver: 'string' });
    expect(fn('map')).toMatchObject({ kind: 'method', receiver: 'list' });
    expect(fn('secret')).toMatchObject({ kind: 'function', ours: true });
    expect(fn('optional.of')).toMatchObject({ kind: 'function' });
  });

  it('lists the extension libraries from shared/cel-functions.ts, with their descriptions and examples', () => {
    const fn = (name: string, receiver?: string) => ref.celFunctions.find((f) => f.name === name && f.receiver === receiver);
    expect(fn('math.greatest')).toMatchObject({ kind: 'function', library: 'math', example: 'math.greatest(1, 2.5, 3u) → 3u' });
    expect(fn('charAt', 'string')).toMatchObject({ kind: 'method', library: 'strings', description: expect.stringContaining('code point') });
    expect(fn('transformMap', 'map')).toMatchObject({ kind: 'method', library: 'comprehensions' });
    expect(fn('getHours', 'timestamp')).toMatchObject({ description: expect.stringContaining('+05:30') });
    expect(fn('int')).toMatchObject({ description: expect.stringMatching(/Converts to an integer.*Unix epoch/) });
    for (const name of ['base64.encode', 'strings.quote', 'optional.ofNonZeroValue', 'cel.block']) expect(fn(name), name).toBeDefined();
    expect(fn('cel.iterVar')).toBeUndefined();
  });
});
