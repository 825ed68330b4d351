import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Root-level YAML files of an integration folder are its flow definitions; folders hold
 * resources. Flow tests (`<name>.test.yaml`) sit beside them but are not definitions.
 */
export function isDefinitionFile(name: string): boolean {
  return (name.endsWith('.yaml') || name.endsWith('.yml')) && !isFlowTestFile(name);
}

/** A flow test file: `<name>.test.yaml` beside the definitions (docs/testing.md). */
export function isFlowTestFile(name: string): boolean {
  return name.endsWith('.test.yaml') || name.endsWith('.test.yml');
}

export function definitionFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => isDefinitionFile(n) && statSync(join(dir, n)).isFile())
    .sort()
    .map((n) => join(dir, n));
}

/**
 * What a path given to the CLI means: a file is one definition; a folder with definitions at its
 * root is one integration; a folder of integration folders (like examples/) is each of them.
 */
export function discoverIntegrations(path: string): string[][] {
  if (statSync(path).isFile()) return [[path]];
  const own = definitionFilesIn(path);
  if (own.length > 0) return [own];
  return readdirSync(path)
    .sort()
    .map((n) => join(path, n))
    .filter((p) => statSync(p).isDirectory())
    .flatMap((p) => discoverIntegrations(p));
}

export interface DefinitionText {
  file: string;
  text: string;
}

export function readDefinitions(files: readonly string[]): DefinitionText[] {
  return files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}
