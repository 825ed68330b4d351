import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { problemsOf } from './testing/load-yaml.ts';

const doc = readFileSync(new URL('../../docs/flows.md', import.meta.url), 'utf8');
/** The YAML blocks of docs/flows.md that are whole definitions (they have a top-level flows:). */
const definitions = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).filter((text) => /^flows:/m.test(text));

describe('the definitions shown in docs/flows.md', () => {
  it('are there to check', () => {
    expect(definitions.length).toBeGreaterThanOrEqual(2);
  });

  it.each(definitions.map((text, i) => [i, text] as const))('example %i validates without problems', (_i, text) => {
    expect(problemsOf(text)).toEqual([]);
  });
});
