import { conflict, notFound } from '../http/api-error.ts';
import type { SecretValues } from '../store/cluster-secret-store.ts';
import type { ManagementStore } from '../store/platform-store.ts';
import { bundleOf, filesOfBundle } from './bundle.ts';
import { ClusterSecretStore } from './cluster-secrets.ts';
import { Deployments } from './deployments.ts';
import { Integrations } from './integrations.ts';
import { Tags } from './tags.ts';

/**
 * The management side of the platform (spec 2 §2.11, §3.2, §4.2–4.4): integrations and their
 * resources, version tags, cluster secrets and deployments, over the store's ManagementStore
 * (SQLite or PostgreSQL, so any replica takes any write). The routes are thin over it, and the
 * studio calls it in process through `PlatformServer.management`.
 */
export class Management {
  readonly integrations: Integrations;
  readonly snapshots: Tags;
  readonly secrets: ClusterSecretStore;
  readonly deployments: Deployments;

  constructor(store: ManagementStore, secretValues: SecretValues) {
    this.integrations = new Integrations(store.integrations);
    this.snapshots = new Tags(store.snapshots);
    this.secrets = new ClusterSecretStore(store.secretNames, secretValues);
    this.deployments = new Deployments(store.deployments, this.snapshots, this.secrets);
  }

  /** The working copy as a tar (definitions at the root, resources under env/ and template/). */
  async bundle(integration: string): Promise<Buffer> {
    const info = await this.integrations.require(integration);
    return bundleOf(await this.integrations.files(integration), info.updatedAt);
  }

  /** Replaces the working copy with a bundle's files, in one transaction. */
  async uploadBundle(integration: string, archive: Buffer, actor: string): Promise<void> {
    await this.integrations.replace(integration, await filesOfBundle(archive), actor);
  }

  /** The frozen copy of a tag as a tar, laid out like `bundle`. */
  async snapshotBundle(snapshotId: string): Promise<Buffer> {
    const snapshot = await this.snapshots.get(snapshotId);
    const definitions = await this.snapshots.definitions(snapshotId);
    const resources = await Promise.all(
      snapshot.resources.map(async (r) => ({ kind: r.kind, name: r.name, content: (await this.snapshots.resourceContent(snapshotId, r.kind, r.name))! })),
    );
    return bundleOf({ definitions, resources }, snapshot.createdAt);
  }

  /**
   * Deletes a cluster secret. While deployments bind it the delete is refused (409, naming
   * them) unless forced; a forced delete returns the bindings it broke.
   */
  async deleteSecret(name: string, force: boolean): Promise<Array<{ deployment: string; variable: string }>> {
    if (!(await this.secrets.get(name))) throw notFound('secret_not_found', `no cluster secret "${name}"`);
    const users = await this.deployments.usersOfSecret(name);
    if (users.length > 0 && !force) {
      throw conflict(
        'secret_in_use',
        `the secret "${name}" is bound by ${describeUsers(users)}; deleting it would stop ${users.length === 1 ? 'that deployment' : 'those deployments'} from starting. ` +
          'Roll them out with another binding first, or delete anyway with ?force=true',
      );
    }
    await this.secrets.delete(name);
    return users;
  }
}

function describeUsers(users: Array<{ deployment: string; variable: string }>): string {
  return users.map((u) => `deployment "${u.deployment}" (${u.variable})`).join(', ');
}
