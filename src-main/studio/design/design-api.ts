import type { StudioApi } from '../../../shared/studio-api.ts';
import { type ComponentRegistry } from '../../runtime/index.ts';
import type { Workspace } from '../workspace.ts';
import { CelPlayground } from './cel-playground.ts';
import { DefinitionFiles } from './definition-files.ts';
import { designReference } from './design-reference.ts';
import { validateDefinition } from './validate-definition.ts';

export type DesignApi = Pick<
  StudioApi,
  'validateDefinition' | 'designReference' | 'evaluateCel' | 'createIntegration' | 'createDefinitionFile' | 'renameDefinitionFile' | 'deleteDefinitionFile'
>;

/** The StudioApi methods of the Flows panel: validation, reference, CEL playground, files. */
export function createDesignApi(workspace: Workspace, registry: ComponentRegistry): DesignApi {
  const playground = new CelPlayground(registry);
  const files = new DefinitionFiles(workspace);
  let reference: ReturnType<typeof designReference> | undefined;
  return {
    validateDefinition: async (integration, edits) => validateDefinition(workspace, registry, integration, edits),
    // The registry does not change while the studio runs; build the reference once.
    designReference: async () => (reference ??= designReference(registry)),
    evaluateCel: (expression, sample) => playground.evaluate(expression, sample),
    createIntegration: async (id) => files.createIntegration(id),
    createDefinitionFile: async (integration, file) => files.create(integration, file),
    renameDefinitionFile: async (integration, from, to) => files.rename(integration, from, to),
    deleteDefinitionFile: async (integration, file) => files.delete(integration, file),
  };
}
