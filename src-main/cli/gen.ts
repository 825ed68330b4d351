import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { platformApiArtifacts } from '../platform/index.ts';
import { generatedArtifacts } from '../runtime/index.ts';
import { flowTestArtifacts } from '../studio/flow-tests/test-file-schema.ts';

const USAGE = `usage: flow-studio gen [--check]

Writes the generated files from their sources: the JSON Schemas of definitions and flow tests,
docs/components.md, the CEL reference in docs/flows.md and the platform's OpenAPI document.
  --check   write nothing; exit 1 naming each file that is out of date (for CI)`;

/** Writes the generated schemas (definitions, flow tests), the platform's OpenAPI document and docs; with --check, fails when they are out of date. */
export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    // Strict, so a mistyped --check in CI is refused instead of regenerating and passing.
    ({ values } = parseArgs({ args: argv, options: { check: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } }));
  } catch (err) {
    console.error(`flow-studio gen: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const check = values.check;
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
