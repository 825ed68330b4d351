import { parseArgs } from 'node:util';
import { relative } from 'node:path';
import { integrationsUnder } from './integrations-under.ts';
import { formatProblem, loadDefinition, LoadError, loadRegistry, readDefinitions } from '../runtime/index.ts';

const USAGE = `usage: flow-studio validate <file-or-folder>...

Checks the definitions of every integration under the paths (a file, an integration's folder, or
a folder of them) as run would load them.
Prints every problem as file:line:col setting.path: message and exits 1; 0 when all load.`;

/** Exit 0 when every definition under the paths loads; else print every problem and exit 1. */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h', default: false } } });
  } catch (err) {
    console.error(`flow-studio validate: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const positionals = parsed.positionals;
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const registry = await loadRegistry();
  let problems = 0;
  let flows = 0;
  let files = 0;
  for (const path of positionals) {
    for (const integration of integrationsUnder(path)) {
      const texts = readDefinitions(integration).map((t) => ({ ...t, file: relative(process.cwd(), t.file) || t.file }));
      files += texts.length;
      try {
        const def = loadDefinition(texts, { registry, mode: 'validate', env: process.env });
        flows += def.flows.size;
      } catch (err) {
        if (!(err instanceof LoadError)) throw err;
        for (const p of err.problems) console.log(formatProblem(p));
        problems += err.problems.length;
      }
    }
  }
  if (problems > 0) {
    console.log(`\n${problems} problem${problems === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`);
    return 1;
  }
  console.log(`ok: ${flows} flow${flows === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`);
  return 0;
}
