import type { Capability } from './capability.ts';
import type { KvStore, SecretScope, SecretStore } from './platform-services.ts';

/**
 * Secrets have no routes of their own (spec 1 §2.2): a secret is the entry `<name>` of the
 * `user_secrets` (or `system_secrets`) namespace. Access is refused while the platform says it
 * does not keep secrets, even when plain KV works.
 */
export class SecretsClient implements SecretStore {
  constructor(
    private readonly kv: KvStore,
    private readonly cap: Capability,
  ) {}

  async read(name: string, scope: SecretScope = 'user'): Promise<string | undefined> {
    if (!this.cap.usable) throw this.cap.unavailable(`secret ${scope}/${name}`, 'secret access is refused while the platform does not keep secrets');
    const entry = await this.kv.get(`${scope}_secrets`, name);
    return entry ? Buffer.from(entry.value).toString('utf8') : undefined;
  }
}
