import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedArtifacts } from './generated-artifacts.ts';

const artifacts = await generatedArtifacts();

describe('generated files', () => {
  it.each(artifacts.map((a) => [a.path.replace(/.*\/(shared|docs)\//, '$1/'), a] as const))(
    '%s matches what the component specs and CEL declarations generate (run `npm run gen` after changing one)',
    (_, artifact) => {
      expect(readFileSync(artifact.path, 'utf8')).toBe(artifact.content);
    },
  );
});
