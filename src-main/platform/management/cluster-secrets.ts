import type { SecretInfo, SecretNameStore, SecretValues } from '../store/cluster-secret-store.ts';

/**
 * Cluster secrets (spec 2 §2.11): names and timestamps in the store (SQLite or PostgreSQL), values
 * where `SecretValues` keeps them (secret-values.ts). A value is stored before its name and
 * deleted after it, so a crash leaves at worst a value without a name, which is never revealed.
 */
export class ClusterSecretStore {
  constructor(
    private readonly names: SecretNameStore,
    private readonly values: SecretValues,
  ) {}

  /** Where the values live, for messages. */
  get backend(): string {
    return this.values.description;
  }

  /** Reads the values of a remote backend before the first `reveal`; a no-op for the local file. */
  ready(): Promise<void> {
    return this.values.ready();
  }

  /** Names and timestamps, by name. */
  async list(): Promise<SecretInfo[]> {
    return this.names.list();
  }

  async get(name: string): Promise<SecretInfo | undefined> {
    return this.names.get(name);
  }

  /** Creates or overwrites; true when created. The value is stored before the name. */
  async put(name: string, value: string, actor: string): Promise<boolean> {
    const existed = (await this.names.get(name)) !== undefined;
    await this.values.put(name, value);
    await this.names.record(name, actor);
    return !existed;
  }

  /** Deletes the name, then the value; false when there was no such secret. */
  async delete(name: string): Promise<boolean> {
    const removed = await this.names.remove(name);
    await this.values.delete(name);
    return removed;
  }

  /**
   * The value, for the process that starts a deployment's runtime (the equivalent of a secret
   * reference resolved into a pod's environment). In process only: no route calls it.
   */
  async reveal(name: string): Promise<string | undefined> {
    if (!(await this.names.get(name))) return undefined;
    return this.values.get(name);
  }
}
