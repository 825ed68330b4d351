import type { RouteInfo } from '../../../shared/studio-api.ts';
import type { DeployInput, DeploymentStatus, DeploymentSummary } from '../../../shared/resource-types.ts';
import type { Deployment } from '../../platform/index.ts';
import { type ComponentRegistry, errorMessage } from '../../runtime/index.ts';
import { startLocalDeployment, type DeploymentPlatform, type RunningDeployment } from '../deployments/local-deployment.ts';
import type { LiveFeed } from '../live-feed.ts';
import { routesOf } from '../run-routes.ts';
import { logSink } from '../runtime-feed.ts';
import { StudioError } from '../studio-error.ts';
import { checkBinding } from './run-bindings.ts';

/**
 * What the local orchestrator manages in a deployment's container environment (spec 2 §4.4):
 * its http connectors listen on loopback on a port of their own, so a deployment never fights
 * the studio's run of the working copy for a port (unless its definition fixes one).
 */
export const LOCAL_MANAGED_ENV: Readonly<Record<string, string>> = { HTTP_HOST: '127.0.0.1', HTTP_PORT: '0' };

const DEPLOYMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

interface Live {
  status: DeploymentStatus;
  reason?: string;
  running?: RunningDeployment;
  routes: RouteInfo[];
}

/**
 * Local deployments of version tags: the platform records them (validating bindings up front)
 * and this runs one runtime per deployment, started as a cluster starts a pod, from the tag's
 * frozen definitions and resources. Operations on one deployment run one after another.
 */
export class LocalDeployments {
  private readonly live = new Map<string, Live>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly platform: DeploymentPlatform,
    private readonly registry: ComponentRegistry,
    private readonly feed: LiveFeed,
    private readonly actor: string,
  ) {}

  async list(): Promise<DeploymentSummary[]> {
    return (await this.platform.management.deployments.list()).map((d) => this.summary(d));
  }

  deploy(input: DeployInput): Promise<DeploymentSummary> {
    const id = checkId(input?.deployment);
    if (typeof input.integration !== 'string' || typeof input.tag !== 'string') throw new StudioError('a deploy names the integration and the tag to deploy');
    const bindings = Object.fromEntries(Object.entries(input.bindings ?? {}).map(([name, b]) => [name, checkBinding(b, name)]));
    return this.serial(id, async () => {
      // Validation (unknown variables, missing secrets, required variables unbound) happens here, before anything stops.
      await this.platform.management.deployments.deploy(id, { integration: input.integration, tag: input.tag, bindings }, this.actor);
      await this.stopRuntime(id);
      await this.startRuntime(id);
      return this.summary(await this.platform.management.deployments.get(id));
    });
  }

  start(id: string): Promise<DeploymentSummary> {
    return this.serial(id, async () => {
      const deployment = await this.platform.management.deployments.get(id);
      if (this.live.get(id)?.status !== 'running') await this.startRuntime(id);
      return this.summary(deployment);
    });
  }

  stop(id: string): Promise<DeploymentSummary> {
    return this.serial(id, async () => {
      const deployment = await this.platform.management.deployments.get(id);
      await this.stopRuntime(id);
      return this.summary(deployment);
    });
  }

  remove(id: string): Promise<void> {
    return this.serial(id, async () => {
      await this.platform.management.deployments.get(id);
      await this.stopRuntime(id);
      await this.platform.management.deployments.delete(id);
      this.live.delete(id);
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.stop(id).catch(() => undefined)));
  }

  private async startRuntime(id: string): Promise<void> {
    this.live.set(id, { status: 'starting', routes: [] });
    try {
      const running = await startLocalDeployment(this.platform, id, {
        registry: this.registry,
        sinks: [logSink(`deployment ${id}`, this.feed)],
        managedEnv: { ...LOCAL_MANAGED_ENV },
        graceMs: 5_000,
      });
      this.live.set(id, { status: 'running', running, routes: routesOf(running.runtime.describe()) });
    } catch (err) {
      this.live.set(id, { status: 'failed', reason: errorMessage(err), routes: [] });
    }
  }

  private async stopRuntime(id: string): Promise<void> {
    const current = this.live.get(id);
    this.live.set(id, { status: 'stopped', routes: [] });
    await current?.running?.stop().catch(() => undefined);
  }

  private summary(d: Deployment): DeploymentSummary {
    const live = this.live.get(d.id) ?? { status: 'stopped' as const, routes: [] };
    return {
      id: d.id,
      integration: d.integration,
      tag: d.tag,
      snapshotId: d.snapshotId,
      createdAt: d.createdAt,
      createdBy: d.createdBy,
      bindings: d.bindings,
      status: live.status,
      ...(live.reason ? { reason: live.reason } : {}),
      routes: live.routes,
    };
  }

  private serial<T>(id: string, op: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(id) ?? Promise.resolve();
    const next = prev.then(op, op);
    const tail = next.catch(() => undefined);
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return next;
  }
}

function checkId(id: unknown): string {
  if (typeof id !== 'string' || !DEPLOYMENT_ID.test(id)) {
    throw new StudioError(`the deployment id "${String(id).slice(0, 60)}" must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "orders-api-v1"`);
  }
  return id;
}
