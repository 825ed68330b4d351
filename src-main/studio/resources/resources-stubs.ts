import type { ResourcesApi } from '../../../shared/studio-api.ts';

const unavailable = async (): Promise<never> => {
  throw new Error('resources, secrets and deployments need a workspace and the embedded platform, and this studio runs without them');
};

/** Empty answers for the Resources and Secrets panels, for backends without a workspace (transport tests). */
export function resourcesStubs(): ResourcesApi {
  return {
    listResources: async () => [],
    readResource: unavailable,
    checkResourceName: async () => ({ ok: true }),
    createResource: unavailable,
    saveResource: unavailable,
    renameResource: unavailable,
    deleteResource: unavailable,
    previewTemplate: async () => ({ ok: false, error: 'no preview without a backend' }),
    listSecrets: async () => [],
    putSecret: unavailable,
    deleteSecret: unavailable,
    secretStoreStatus: async () => ({ protection: 'key-file', description: 'none', canOptIn: false }),
    allowWeakSecretBackend: unavailable,
    environmentView: unavailable,
    runBindings: async () => ({}),
    setRunBinding: unavailable,
    listTags: async () => [],
    createTag: unavailable,
    diffTag: unavailable,
    listDeployments: async () => [],
    deployTag: unavailable,
    startDeployment: unavailable,
    stopDeployment: unavailable,
    removeDeployment: unavailable,
    exportBundle: unavailable,
    previewBundleImport: unavailable,
    importBundle: unavailable,
  };
}
