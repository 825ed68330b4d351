import type { CelSample } from '../../shared/flow-design.ts';
import type {
  Binding,
  BundleFile,
  BundleImportPreview,
  DeleteSecretResult,
  DeployInput,
  DeploymentSummary,
  EnvironmentTarget,
  EnvironmentView,
  ResourceEntry,
  ResourceKind,
  ResourceNameCheck,
  SecretStoreStatus,
  SecretSummary,
  TagDiff,
  TagSummary,
  TemplatePreview,
} from '../../shared/resource-types.ts';
import { studio } from './studio-client.ts';

/**
 * The Resources and Secrets panels' calls; plain passthroughs, so components never hold the
 * bridge. `putSecret` is the only call that carries a secret value, and only towards the backend.
 */
export const resourceCalls = {
  listResources: (integration: string): Promise<ResourceEntry[]> => studio.listResources(integration),
  readResource: (integration: string, kind: ResourceKind, name: string): Promise<string> => studio.readResource(integration, kind, name),
  checkResourceName: (integration: string, kind: ResourceKind, name: string, except?: string): Promise<ResourceNameCheck> =>
    studio.checkResourceName(integration, kind, name, except),
  createResource: (integration: string, kind: ResourceKind, name: string, content: string): Promise<ResourceEntry> =>
    studio.createResource(integration, kind, name, content),
  saveResource: (integration: string, kind: ResourceKind, name: string, content: string): Promise<ResourceEntry> =>
    studio.saveResource(integration, kind, name, content),
  renameResource: (integration: string, kind: ResourceKind, from: string, to: string): Promise<ResourceEntry> =>
    studio.renameResource(integration, kind, from, to),
  deleteResource: (integration: string, kind: ResourceKind, name: string): Promise<void> => studio.deleteResource(integration, kind, name),
  previewTemplate: (text: string, sample: CelSample): Promise<TemplatePreview> => studio.previewTemplate(text, sample),
  listSecrets: (): Promise<SecretSummary[]> => studio.listSecrets(),
  putSecret: (name: string, value: string): Promise<SecretSummary> => studio.putSecret(name, value),
  deleteSecret: (name: string, force: boolean): Promise<DeleteSecretResult> => studio.deleteSecret(name, force),
  secretStoreStatus: (): Promise<SecretStoreStatus> => studio.secretStoreStatus(),
  allowWeakSecretBackend: (): Promise<SecretStoreStatus> => studio.allowWeakSecretBackend(),
  environmentView: (target: EnvironmentTarget): Promise<EnvironmentView> => studio.environmentView(target),
  runBindings: (integration: string): Promise<Record<string, Binding>> => studio.runBindings(integration),
  setRunBinding: (integration: string, variable: string, binding: Binding | null): Promise<Record<string, Binding>> =>
    studio.setRunBinding(integration, variable, binding),
  listTags: (integration: string): Promise<TagSummary[]> => studio.listTags(integration),
  createTag: (integration: string, tag: string, description?: string): Promise<TagSummary> => studio.createTag(integration, tag, description),
  diffTag: (integration: string, tag: string): Promise<TagDiff> => studio.diffTag(integration, tag),
  listDeployments: (): Promise<DeploymentSummary[]> => studio.listDeployments(),
  deployTag: (input: DeployInput): Promise<DeploymentSummary> => studio.deployTag(input),
  startDeployment: (id: string): Promise<DeploymentSummary> => studio.startDeployment(id),
  stopDeployment: (id: string): Promise<DeploymentSummary> => studio.stopDeployment(id),
  removeDeployment: (id: string): Promise<void> => studio.removeDeployment(id),
  exportBundle: (integration: string): Promise<BundleFile> => studio.exportBundle(integration),
  previewBundleImport: (integration: string, base64: string): Promise<BundleImportPreview> => studio.previewBundleImport(integration, base64),
  importBundle: (integration: string, base64: string): Promise<BundleImportPreview> => studio.importBundle(integration, base64),
};
