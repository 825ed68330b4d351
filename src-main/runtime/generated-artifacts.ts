import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { flowsMarkdownWithReference } from './core/docs/cel-functions-md.ts';
import { componentsMarkdown } from './core/docs/components-md.ts';
import { definitionSchema } from './core/docs/json-schema.ts';
import { loadRegistry } from './components.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Files generated from the component specs and the CEL declarations; a test fails when the
 * committed copies differ. docs/flows.md is generated only between its CEL reference markers.
 */
export async function generatedArtifacts(): Promise<Array<{ path: string; content: string }>> {
  const registry = await loadRegistry();
  return [
    { path: `${root}shared/flow-definition.schema.json`, content: JSON.stringify(definitionSchema(registry), null, 2) + '\n' },
    { path: `${root}docs/components.md`, content: componentsMarkdown(registry) },
    { path: `${root}docs/flows.md`, content: flowsMarkdownWithReference(readFileSync(`${root}docs/flows.md`, 'utf8')) },
  ];
}
