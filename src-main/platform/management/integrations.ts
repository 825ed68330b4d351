import type {
  DefinitionInfo,
  DefinitionRecord,
  IntegrationFiles,
  IntegrationInfo,
  IntegrationStore,
  ResourceInfo,
  ResourcePatch,
  ResourceRecord,
} from '../store/integration-store.ts';
import type { ResourceKind } from '../store/resource-store.ts';
import { answered, checkBundleResources, checkKind, missingIntegration } from './management-errors.ts';
import { checkResourceName } from './names.ts';

/**
 * The working copy of each integration (spec 2 §2.11, §4.2) over either store: names and kinds
 * are checked before anything is written, and a store's refusal (a missing integration, a taken
 * name, a stale version) is answered in the management API's words.
 */
export class Integrations {
  constructor(private readonly store: IntegrationStore) {}

  list(): Promise<IntegrationInfo[]> {
    return this.store.list();
  }

  get(id: string): Promise<IntegrationInfo | undefined> {
    return this.store.get(id);
  }

  /** The integration, or a 404 that says how one comes to exist. */
  async require(id: string): Promise<IntegrationInfo> {
    const found = await this.store.get(id);
    if (!found) throw missingIntegration(id);
    return found;
  }

  /** Creates the integration when missing; true when it was created. */
  ensure(id: string, actor: string): Promise<boolean> {
    return this.store.ensure(id, actor);
  }

  listResources(integration: string): Promise<ResourceInfo[]> {
    return answered(this.store.listResources(integration));
  }

  getResource(integration: string, id: string): Promise<ResourceRecord> {
    return answered(this.store.getResource(integration, id));
  }

  async createResource(integration: string, input: { kind: ResourceKind; name: string; content: Buffer }, actor: string): Promise<ResourceRecord> {
    checkKind(input.kind);
    checkResourceName(input.name);
    return answered(this.store.createResource(integration, input, actor));
  }

  /** Applies the patch; `expectedVersion` 0 writes unconditionally, a positive one must match. */
  async updateResource(integration: string, id: string, patch: ResourcePatch, expectedVersion: number, actor: string): Promise<ResourceRecord> {
    if (patch.kind !== undefined) checkKind(patch.kind);
    if (patch.name !== undefined) checkResourceName(patch.name);
    return answered(this.store.updateResource(integration, id, patch, expectedVersion, actor));
  }

  deleteResource(integration: string, id: string, actor: string): Promise<ResourceInfo> {
    return answered(this.store.deleteResource(integration, id, actor));
  }

  listDefinitions(integration: string): Promise<DefinitionInfo[]> {
    return answered(this.store.listDefinitions(integration));
  }

  getDefinition(integration: string, file: string): Promise<DefinitionRecord> {
    return answered(this.store.getDefinition(integration, file));
  }

  /** Creates or replaces a definition file; true when it was created. */
  putDefinition(integration: string, file: string, content: Buffer, actor: string): Promise<boolean> {
    return answered(this.store.putDefinition(integration, file, content, actor));
  }

  deleteDefinition(integration: string, file: string, actor: string): Promise<void> {
    return answered(this.store.deleteDefinition(integration, file, actor));
  }

  /** Definitions and resources with their content, resources in declared order. */
  files(integration: string): Promise<IntegrationFiles> {
    return answered(this.store.files(integration));
  }

  /** Replaces the working copy with a bundle's files, in one transaction, once every resource name and kind checked out. */
  async replace(integration: string, files: IntegrationFiles, actor: string): Promise<void> {
    checkBundleResources(files);
    return answered(this.store.replace(integration, files, actor));
  }
}
