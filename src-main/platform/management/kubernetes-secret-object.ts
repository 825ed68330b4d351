import { readFileSync } from 'node:fs';
import type { Agent } from 'undici';
import { ApiError } from '../http/api-error.ts';

/** Where the Kubernetes API is and who we are to it; `inCluster()` reads the pod's service account. */
export interface KubernetesApiOptions {
  /** e.g. `https://kubernetes.default.svc:443` */
  apiServer: string;
  namespace: string;
  /** Bearer token; re-read from `tokenFile` on every call when that is given (projected tokens rotate). */
  token?: string;
  tokenFile?: string;
  /** CA certificate (PEM) of the API server. */
  ca?: string;
  /** The Secret holding every cluster secret. */
  secretName?: string;
}

const SA = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The in-cluster configuration of a pod: KUBERNETES_SERVICE_HOST/PORT and the mounted service account. */
export function inClusterKubernetes(env: NodeJS.ProcessEnv = process.env): KubernetesApiOptions {
  const host = env.KUBERNETES_SERVICE_HOST;
  if (!host) throw new Error('FLOW_CLUSTER_SECRETS=kubernetes needs KUBERNETES_SERVICE_HOST: it works in a pod with a service account');
  return {
    apiServer: `https://${host.includes(':') ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT ?? '443'}`,
    namespace: readFileSync(`${SA}/namespace`, 'utf8').trim(),
    tokenFile: `${SA}/token`,
    ca: readFileSync(`${SA}/ca.crt`, 'utf8'),
  };
}

interface SecretResource {
  metadata?: { resourceVersion?: string };
  data?: Record<string, string>;
}

/**
 * The values of cluster secrets as keys of one Kubernetes Secret (spec 2 §2.11: `flow-secrets`
 * in the platform's namespace), read and patched through the Kubernetes API. Each change is a
 * JSON merge patch carrying the `resourceVersion` it was computed from, so a concurrent writer
 * (another platform replica, kubectl) makes the API answer 409 and the change is re-read and
 * retried instead of overwriting theirs. The Secret is created on the first write. Values are
 * cached after each read or write, for the in-process `reveal`; nothing here logs a value.
 */
export class KubernetesSecretObject {
  readonly description: string;
  /** With a CA of its own; made by the first call, which loads undici (a platform on SQLite never does). */
  private dispatcher: Agent | undefined;
  private readonly path: string;
  private readonly collection: string;
  private readonly name: string;
  private cache = new Map<string, string>();
  private version: string | undefined;

  constructor(private readonly o: KubernetesApiOptions) {
    this.name = o.secretName ?? 'flow-secrets';
    this.collection = `/api/v1/namespaces/${encodeURIComponent(o.namespace)}/secrets`;
    this.path = `${this.collection}/${encodeURIComponent(this.name)}`;
    this.description = `the Kubernetes Secret ${o.namespace}/${this.name}`;
  }

  /** Reads the Secret (absent: no values) into the cache. */
  async load(): Promise<Map<string, string>> {
    const res = await this.call('GET', this.path);
    if (res.status === 404) {
      this.version = undefined;
      this.cache = new Map();
    } else this.remember(this.expect(res, 200, 'read'));
    return this.cache;
  }

  cached(name: string): string | undefined {
    return this.cache.get(name);
  }

  names(): string[] {
    return [...this.cache.keys()];
  }

  put(name: string, value: string): Promise<void> {
    return this.change({ [name]: Buffer.from(value, 'utf8').toString('base64') });
  }

  delete(name: string): Promise<void> {
    return this.change({ [name]: null });
  }

  close(): void {
    void this.dispatcher?.close();
  }

  private async change(data: Record<string, string | null>): Promise<void> {
    for (let attempt = 0; attempt < 8; attempt++) {
      if (this.version === undefined) {
        await this.load();
        if (this.version === undefined) {
          const created = Object.fromEntries(Object.entries(data).filter((e): e is [string, string] => e[1] !== null));
          const res = await this.call('POST', this.collection, { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: this.name }, data: created });
          if (res.status === 409) continue; // created meanwhile by someone else: patch it
          this.remember(this.expect(res, 201, 'create'));
          return;
        }
      }
      const res = await this.call('PATCH', this.path, { metadata: { resourceVersion: this.version }, data }, 'application/merge-patch+json');
      if (res.status === 409 || res.status === 404) {
        this.version = undefined; // changed or deleted since we read it: read again
        continue;
      }
      this.remember(this.expect(res, 200, 'patch'));
      return;
    }
    throw new ApiError(503, 'secret_store_unavailable', `${this.description} kept changing under this write (8 conflicts in a row); retry`);
  }

  private remember(secret: SecretResource): void {
    this.version = secret.metadata?.resourceVersion;
    this.cache = new Map(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  }

  private expect(res: { status: number; body: unknown }, status: number, what: string): SecretResource {
    if (res.status === status) return res.body as SecretResource;
    const message = (res.body as { message?: unknown } | undefined)?.message;
    throw new ApiError(
      503,
      'secret_store_unavailable',
      `could not ${what} ${this.description}: the Kubernetes API answered ${res.status}${typeof message === 'string' ? ` (${message.slice(0, 300)})` : ''}`,
    );
  }

  private async call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: unknown }> {
    const token = this.o.tokenFile ? readFileSync(this.o.tokenFile, 'utf8').trim() : this.o.token;
    let res;
    try {
      const { Agent, request } = await import('undici');
      if (this.o.ca) this.dispatcher ??= new Agent({ connect: { ca: this.o.ca } });
      res = await request(`${this.o.apiServer}${path}`, {
        method,
        dispatcher: this.dispatcher,
        headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': contentType } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
    } catch (err) {
      throw new ApiError(503, 'secret_store_unavailable', `${this.description} is unreachable at ${this.o.apiServer}: ${(err as Error).message}`);
    }
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, body: parsed };
  }
}
