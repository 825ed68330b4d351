import { conflict, notFound } from '../http/api-error.ts';
import type { Db } from '../store/database.ts';
import { bundleOf, filesOfBundle } from './bundle.ts';
import { ClusterSecretStore } from './cluster-secret-store.ts';
import type { KubernetesSecretObject } from './kubernetes-secret-object.ts';
import { DeploymentStore } from './deployment-store.ts';
import { IntegrationStore } from './integration-store.ts';
import type { SecretKeyProtection } from './secret-key-protection.ts';
import { SnapshotStore } from './snapshot-store.ts';

/**
 * The management side of the platform (spec 2 §2.11, §3.2, §4.2–4.4): integrations and their
 * resources, version tags, cluster secrets and deployments. The routes are thin over it, and
 * the studio calls it in process through `PlatformServer.management`.
 */
export class Management {
  readonly integrations: IntegrationStore;
  readonly snapshots: SnapshotStore;
  readonly secrets: ClusterSecretStore;
  readonly deployments: DeploymentStore;

  constructor(db: Db, dataDir: string, keyProtection: SecretKeyProtection, kubernetesSecrets?: KubernetesSecretObject) {
    this.integrations = new IntegrationStore(db);
    this.snapshots = new SnapshotStore(db, this.integrations);
    this.secrets = new ClusterSecretStore(db, dataDir, keyProtection, kubernetesSecrets);
    this.deployments = new DeploymentStore(db, this.snapshots, this.secrets);
  }

  /** The working copy as a tar (definitions at the root, resources under env/ and template/). */
  bundle(integration: string): Promise<Buffer> {
    const info = this.integrations.require(integration);
    return bundleOf(this.integrations.files(integration), info.updatedAt);
  }

  /** Replaces the working copy with a bundle's files, in one transaction. */
  async uploadBundle(integration: string, archive: Buffer, actor: string): Promise<void> {
    this.integrations.replace(integration, await filesOfBundle(archive), actor);
  }

  /** The frozen copy of a tag as a tar, laid out like `bundle`. */
  snapshotBundle(snapshotId: string): Promise<Buffer> {
    const snapshot = this.snapshots.get(snapshotId);
    const definitions = this.snapshots.definitions(snapshotId);
    const resources = snapshot.resources.map((r) => ({ kind: r.kind, name: r.name, content: this.snapshots.resourceContent(snapshotId, r.kind, r.name)! }));
    return bundleOf({ definitions, resources }, snapshot.createdAt);
  }

  /**
   * Deletes a cluster secret. While deployments bind it the delete is refused (409, naming
   * them) unless forced; a forced delete returns the bindings it broke.
   */
  async deleteSecret(name: string, force: boolean): Promise<Array<{ deployment: string; variable: string }>> {
    if (!this.secrets.get(name)) throw notFound('secret_not_found', `no cluster secret "${name}"`);
    const users = this.deployments.usersOfSecret(name);
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
