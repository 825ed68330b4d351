import type { Binding, SecretSummary, TagSummary } from '../../../shared/resource-types.ts';
import type { ResourcesApi } from '../../../shared/studio-api.ts';
import { checkSecretName, type Management, type Snapshot } from '../../platform/index.ts';
import { type ComponentRegistry } from '../../runtime/index.ts';
import type { LiveFeed } from '../live-feed.ts';
import { StudioError } from '../studio-error.ts';
import type { Workspace } from '../workspace.ts';
import { exportBundle, importBundle, previewImport } from './bundle-transfer.ts';
import { environmentView, type EnvironmentContext } from './environment-sources.ts';
import { LocalDeployments } from './local-deployments.ts';
import { ResourceFiles } from './resource-files.ts';
import { checkBinding, RunBindings } from './run-bindings.ts';
import type { SecretBackend } from './secret-backend.ts';
import { diffTag } from './tag-diff.ts';
import { previewTemplate } from './template-preview.ts';
import { envResourceNames, studioActor, syncWorkingCopy, workingCopyFiles } from './working-copy.ts';

/** As the platform's PUT /secrets/{name} allows. */
const MAX_SECRET_VALUE_BYTES = 256 * 1024;
const TAG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface ResourcesOptions {
  workspace: Workspace;
  dataDir: string;
  /** The embedded platform: its URL and token for deployments, its management in process. */
  platform: { url: string; token: string; management?: Management };
  registry: ComponentRegistry;
  feed: LiveFeed;
  /** The environment studio runs inherit. */
  processEnv: Record<string, string | undefined>;
  secretBackend: SecretBackend;
  /** Run bindings of an integration changed: a running one reloads with them. */
  bindingsChanged(integration: string): void;
}

/** What a studio run of the working copy starts with besides the inherited environment. */
export interface RunEnvironment {
  /** Literal bindings and resolved secret bindings; empty bindings are absent. */
  env: Record<string, string>;
  /** Values that came from secrets, for the run's redactor. */
  secretValues: string[];
  /** Env resources to fold in beneath the environment, in declared order. */
  envResources: string[];
}

export interface ResourcesService {
  readonly api: ResourcesApi;
  runEnvironment(integration: string): Promise<RunEnvironment>;
  close(): Promise<void>;
}

/** The StudioApi methods of the Resources and Secrets panels, and what the run manager needs from them. */
export function startResources(options: ResourcesOptions): ResourcesService {
  const { workspace, platform, secretBackend } = options;
  const files = new ResourceFiles(workspace);
  const bindings = new RunBindings(options.dataDir);
  const actor = studioActor();
  const management = (): Management => {
    if (!platform.management) throw new StudioError('tags, secrets and deployments need the embedded platform, and this studio runs without one');
    return platform.management;
  };
  const deployments = platform.management
    ? new LocalDeployments({ url: platform.url, token: platform.token || undefined, management: platform.management }, options.registry, options.feed, actor)
    : undefined;
  const envContext: EnvironmentContext = { workspace, management: platform.management, processEnv: options.processEnv, runBindings: (id) => bindings.of(id) };
  const secretSummary = async (name: string): Promise<SecretSummary> => {
    const m = management();
    const info = await m.secrets.get(name);
    if (!info) throw new StudioError(`no cluster secret "${name}"`);
    return { ...info, usedBy: await m.deployments.usersOfSecret(name), studioRuns: bindings.usersOfSecret(name) };
  };

  const api: ResourcesApi = {
    listResources: async (integration) => files.list(integration),
    readResource: async (integration, kind, name) => files.read(integration, kind, name),
    checkResourceName: async (integration, kind, name, except) => files.check(integration, kind, name, except),
    createResource: async (integration, kind, name, content) => files.create(integration, kind, name, text(content)),
    saveResource: async (integration, kind, name, content) => files.save(integration, kind, name, text(content)),
    renameResource: async (integration, kind, from, to) => files.rename(integration, kind, from, to),
    deleteResource: async (integration, kind, name) => files.delete(integration, kind, name),
    previewTemplate: async (template, sample) => previewTemplate(template, sample),

    listSecrets: async () => {
      const m = management();
      return Promise.all((await m.secrets.list()).map(async (s) => ({ ...s, usedBy: await m.deployments.usersOfSecret(s.name), studioRuns: bindings.usersOfSecret(s.name) })));
    },
    putSecret: async (name, value) => {
      checkSecretName(name);
      // No message here may quote the value.
      if (typeof value !== 'string' || value === '') throw new StudioError('a secret needs a value: type it in the write-only field');
      if (Buffer.byteLength(value) > MAX_SECRET_VALUE_BYTES) throw new StudioError(`a secret value is at most ${MAX_SECRET_VALUE_BYTES / 1024} KiB`);
      await management().secrets.put(name, value, actor);
      return secretSummary(name);
    },
    deleteSecret: async (name, force) => {
      checkSecretName(name);
      // The platform guards deployments; the studio's own runs are bound here, so guarded here.
      const studioRuns = bindings.usersOfSecret(name);
      if (studioRuns.length > 0 && force !== true && (await management().secrets.get(name))) {
        const uses = studioRuns.map((u) => `${u.integration} (${u.variable})`).join(', ');
        throw new StudioError(
          `the secret "${name}" is bound by the studio runs of ${uses}; deleting it would stop them from starting. ` +
            'Bind another secret in Resources → Environment first, or delete anyway with Force delete',
        );
      }
      const broken = await management().deleteSecret(name, force === true);
      return { deleted: name, brokenDeployments: broken, brokenStudioRuns: studioRuns };
    },
    secretStoreStatus: async () => secretBackend.status(),
    allowWeakSecretBackend: async () => secretBackend.allowWeak(),

    environmentView: async (target) => environmentView(envContext, target),
    runBindings: async (integration) => {
      workspace.dirOf(integration);
      return bindings.of(integration);
    },
    setRunBinding: async (integration, variable, binding) => {
      workspace.dirOf(integration);
      if (binding !== null) await checkRunBinding(integration, variable, checkBinding(binding, variable));
      const next = bindings.set(integration, variable, binding === null ? null : checkBinding(binding, variable));
      options.bindingsChanged(integration);
      return next;
    },

    listTags: async (integration) => {
      const m = management();
      workspace.dirOf(integration);
      return (await m.integrations.get(integration)) ? (await m.snapshots.listTags(integration)).map(tagSummary) : [];
    },
    createTag: async (integration, tag, description) => {
      const m = management();
      if (typeof tag !== 'string' || !TAG.test(tag)) {
        throw new StudioError(`the tag "${String(tag).slice(0, 60)}" must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "v1.0.0"`);
      }
      await syncWorkingCopy(m, workspace, integration, actor);
      const desc = typeof description === 'string' && description.trim() !== '' ? description.trim().slice(0, 2000) : undefined;
      return tagSummary(await m.snapshots.createTag(integration, tag, desc, actor));
    },
    diffTag: async (integration, tag) => diffTag(management(), integration, tag, workingCopyFiles(workspace, integration)),

    listDeployments: async () => needDeployments().list(),
    deployTag: (input) => needDeployments().deploy(input),
    startDeployment: (id) => needDeployments().start(id),
    stopDeployment: (id) => needDeployments().stop(id),
    removeDeployment: (id) => needDeployments().remove(id),

    exportBundle: async (integration) => exportBundle(management(), workspace, integration, actor),
    previewBundleImport: async (integration, base64) => previewImport(workspace, integration, base64),
    importBundle: async (integration, base64) => importBundle(workspace, integration, base64),
  };

  function needDeployments(): LocalDeployments {
    if (!deployments) throw new StudioError('local deployments need the embedded platform, and this studio runs without one');
    return deployments;
  }

  /** A secret variable is bound to a secret (as a deploy requires), and a secret binding names one that exists. */
  async function checkRunBinding(integration: string, variable: string, binding: Binding): Promise<void> {
    if ('secret' in binding) {
      if (!(await management().secrets.get(binding.secret))) throw new StudioError(`there is no cluster secret "${binding.secret}"; create it in the Secrets panel first`);
      return;
    }
    const declared = (await environmentView(envContext, { kind: 'working-copy', integration })).variables.find((v) => v.name === variable);
    if (declared?.secret && binding.value !== '') {
      throw new StudioError(`${variable} is declared secret: true, so it is bound to a cluster secret by name, never to a literal value`);
    }
  }

  return {
    api,
    async runEnvironment(integration) {
      const env: Record<string, string> = {};
      const secretValues: string[] = [];
      for (const [variable, b] of Object.entries(bindings.of(integration))) {
        if ('secret' in b) {
          const value = await platform.management?.secrets.reveal(b.secret);
          if (value === undefined) {
            throw new StudioError(`${variable} is bound to the secret "${b.secret}", which does not exist; create it in the Secrets panel or change the binding in Resources → Environment`);
          }
          env[variable] = value;
          secretValues.push(value);
        } else if (b.value !== '') env[variable] = b.value;
      }
      return { env, secretValues, envResources: envResourceNames(workspace, integration) };
    },
    close: async () => {
      await deployments?.close();
    },
  };
}

function text(content: unknown): string {
  if (typeof content !== 'string') throw new StudioError('resource content must be text');
  return content;
}

function tagSummary(s: Snapshot): TagSummary {
  return {
    tag: s.tag,
    snapshotId: s.id,
    ...(s.description !== undefined ? { description: s.description } : {}),
    createdAt: s.createdAt,
    createdBy: s.createdBy,
    definitions: s.definitions.map((d) => d.file),
    resources: s.resources.map((r) => ({ kind: r.kind, name: r.name })),
    variables: s.variables.map((v) => ({ ...v })),
  };
}

