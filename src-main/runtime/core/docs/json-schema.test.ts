import { describe, expect, it } from 'vitest';
import { registry } from '../../registry.ts';
import { definitionSchema } from './json-schema.ts';

describe('the definition JSON Schema', () => {
  const schema = definitionSchema(registry) as { $defs: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }> };

  it('describes every registered block with its settings, defaults and required ones', () => {
    for (const type of registry.blocks.keys()) expect(schema.$defs[`block.${type}`]).toBeDefined();
    const log = schema.$defs['block.log'];
    expect(log.properties?.level).toMatchObject({ enum: ['debug', 'info', 'warn', 'error'], default: 'info' });
    expect(log.required).toEqual(['message']);
    expect(String(log.properties?.message.markdownDescription)).toContain('**required**');
  });
});
