import { describe, expect, it } from 'vitest';
import schema from '../../../../shared/flow-definition.schema.json' with { type: 'json' };
import { fixtureReference } from './reference-fixture.ts';

type Props = { properties?: Record<string, { type?: unknown }> };

describe('the analysis tests’ reference fixture', () => {
  it('names only settings the generated schema has, so the unit tests follow the real specs', () => {
    const defs = (schema as { $defs: Record<string, Props> }).$defs;
    for (const c of fixtureReference.components.filter((c) => c.kind === 'block')) {
      const real = Object.keys(defs[`block.${c.type}`]?.properties ?? {});
      expect(real, c.type).toEqual(expect.arrayContaining(Object.keys(c.settings)));
    }
  });
});
