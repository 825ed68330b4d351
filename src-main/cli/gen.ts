import { readFileSync, writeFileSync } from 'node:fs';
import { platformApiArtifacts } from '../platform/index.ts';
import { generatedArtifacts } from '../runtime/index.ts';
import { flowTestArtifacts } from '../studio/flow-tests/test-file-schema.ts';

/** Writes the generated schemas (definitions, flow tests), the platform's OpenAPI document and docs; with --check, fails when they are out of date. */
export async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  let stale = 0;
  for (const { path, content } of [...(await generatedArtifacts()), ...flowTestArtifacts(), ...platformApiArtifacts()]) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // Missing counts as stale.
    }
    if (current === content) continue;
    stale++;
    if (check) console.error(`${path} is out of date; run npm run gen`);
    else {
      writeFileSync(path, content);
      console.log(`wrote ${path}`);
    }
  }
  return check && stale > 0 ? 1 : 0;
}
