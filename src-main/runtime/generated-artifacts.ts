import { fileURLToPath } from 'node:url';
import { componentsMarkdown } from './core/docs/components-md.ts';
import { definitionSchema } from './core/docs/json-schema.ts';
import { registry } from './registry.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Files generated from the component specs; a test fails when the committed copies differ. */
export function generatedArtifacts(): Array<{ path: string; content: string }> {
  return [
    { path: `${root}shared/flow-definition.schema.json`, content: JSON.stringify(definitionSchema(registry), null, 2) + '\n' },
    { path: `${root}docs/components.md`, content: componentsMarkdown(registry) },
  ];
}
