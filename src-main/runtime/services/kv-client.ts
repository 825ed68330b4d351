import { kvDelete, kvGet, kvPut } from '../../../shared/platform-api/route-addresses.ts';
import { intHeader, versionHeader, type PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import { PlatformError, VersionConflictError } from './platform-error.ts';
import { RUN_ID_HEADER } from '../../../shared/run-id-header.ts';
import type { KvEntry, KvStore, KvWriteOptions } from './platform-services.ts';
import { callRoute } from './route-call.ts';

/** A write without an expected version reads the version and writes; a race is retried this often. */
const UPSERT_ATTEMPTS = 8;

/**
 * KV over /v1/kv/{namespace}/entry?key= (spec 1 §4.1). Namespaces ending in `_secrets` hold
 * secrets: they are refused outright when the platform does not keep secrets, whatever the KV
 * policy says, so a value meant to be protected is never written to plain storage.
 */
export class KvClient implements KvStore {
  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly secrets: Capability,
    readonly maxValueBytes: number | undefined,
  ) {}

  async get(namespace: string, key: string): Promise<KvEntry | undefined> {
    const op = `kv get ${namespace}/${key}`;
    this.checkSecrets(namespace, op);
    if (!this.cap.usable) return this.degradedRead(op);
    const res = await callRoute(this.http, kvGet, { params: { namespace }, query: { key }, capability: this.cap });
    if (res.status === 200) return { value: res.body, version: intHeader(res, 'x-object-version') };
    if (res.status === 404) return undefined;
    if (res.status === 501) return this.degradedRead(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async put(namespace: string, key: string, value: Uint8Array, options: KvWriteOptions = {}): Promise<number> {
    const op = `kv put ${namespace}/${key}`;
    this.checkSecrets(namespace, op);
    if (this.maxValueBytes !== undefined && value.length > this.maxValueBytes) {
      throw new Error(`${op}: the value is ${value.length} bytes; the platform accepts at most ${this.maxValueBytes} (features.kv.maxValueBytes)`);
    }
    if (!this.cap.usable) throw this.cap.unavailable(op);
    if (options.expectedVersion !== undefined) return this.write(op, namespace, key, value, options.expectedVersion, options.runId);
    // The contract has no blind overwrite: write against the version just read, again on a race.
    for (let attempt = 1; ; attempt++) {
      const current = await this.get(namespace, key);
      try {
        return await this.write(op, namespace, key, value, current?.version ?? 0, options.runId);
      } catch (err) {
        if (!(err instanceof VersionConflictError) || attempt >= UPSERT_ATTEMPTS) throw err;
      }
    }
  }

  async delete(namespace: string, key: string, options: KvWriteOptions = {}): Promise<void> {
    const op = `kv delete ${namespace}/${key}`;
    this.checkSecrets(namespace, op);
    if (!this.cap.usable) return this.cap.refuseIfError(op);
    const res = await callRoute(this.http, kvDelete, {
      params: { namespace },
      query: { key },
      headers: { ...versionHeader(options.expectedVersion), ...runHeader(options.runId) },
      capability: this.cap,
    });
    if (res.status === 204 || res.status === 200 || res.status === 404) return;
    if (res.status === 409) throw new VersionConflictError(`${op}: version ${options.expectedVersion} is not the stored version (409)`);
    if (res.status === 501) return this.cap.refuseIfError(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  private async write(op: string, namespace: string, key: string, value: Uint8Array, version: number, runId: string | undefined): Promise<number> {
    const res = await callRoute(this.http, kvPut, {
      params: { namespace },
      query: { key },
      headers: { ...versionHeader(version), ...runHeader(runId) },
      bytes: value,
      capability: this.cap,
    });
    if (res.status === 200 || res.status === 201) return intHeader(res, 'x-object-version');
    if (res.status === 409) {
      throw new VersionConflictError(
        version === 0 ? `${op}: the entry already exists (create-only write, 409)` : `${op}: version ${version} is not the stored version (409)`,
      );
    }
    if (res.status === 501) throw this.cap.unavailable(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  private degradedRead(op: string): undefined {
    this.cap.refuseIfError(op);
    return undefined;
  }

  private checkSecrets(namespace: string, op: string): void {
    if (namespace.endsWith('_secrets') && !this.secrets.usable) {
      throw this.secrets.unavailable(op, 'secret namespaces are refused while the platform does not keep secrets');
    }
  }
}

function runHeader(runId: string | undefined): Record<string, string> {
  return runId ? { [RUN_ID_HEADER]: runId } : {};
}
