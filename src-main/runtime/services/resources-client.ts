import { getResource, getSnapshot, getSnapshotResource } from '../../../shared/platform-api/route-addresses.ts';
import type { PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import { PlatformError } from './platform-error.ts';
import type { ResourceKind, ResourceStore } from './platform-services.ts';
import { callRoute, responseJson } from './route-call.ts';

/**
 * GET /v1/resources/content?kind=&name= (spec 1 §4.1). There is no watch: callers read a
 * resource once per generation (a runtime's lifetime) and keep it.
 *
 * A deployed runtime carries `FLOW_SNAPSHOT_ID` and reads its version tag's frozen resources
 * from GET /snapshots/{id}/resources/content instead (spec 2 §4.2), with the same query and answers.
 */
export class ResourcesClient implements ResourceStore {
  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly snapshotId?: string,
  ) {}

  async read(kind: ResourceKind, name: string): Promise<string | undefined> {
    const op = `resource ${kind} ${name}`;
    if (!this.cap.usable) return this.degraded(op);
    const res =
      this.snapshotId === undefined
        ? await callRoute(this.http, getResource, { query: { kind, name }, capability: this.cap })
        : await callRoute(this.http, getSnapshotResource, { params: { id: this.snapshotId }, query: { kind, name }, capability: this.cap });
    if (res.status === 200) return Buffer.from(res.body).toString('utf8');
    // A missing snapshot is a misconfigured deployment, not a missing resource.
    if (res.status === 404 && !isSnapshotMissing(res.body)) return undefined;
    if (res.status === 501) return this.degraded(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  /** GET /snapshots/{id}: the snapshot lists its frozen resources in declared order (spec 2 §4.2). */
  async snapshotEnvResources(): Promise<string[] | undefined> {
    if (this.snapshotId === undefined) return undefined;
    const res = await callRoute(this.http, getSnapshot, { params: { id: this.snapshotId } });
    if (res.status !== 200) {
      throw new PlatformError(res.route, res.status, res.body, `snapshot ${this.snapshotId} (FLOW_SNAPSHOT_ID)`);
    }
    const resources: unknown = responseJson(res, getSnapshot, 200).resources;
    if (!Array.isArray(resources)) throw new Error(`platform GET /snapshots/${this.snapshotId} answered without a resources list`);
    return resources
      .filter((r): r is { kind: string; name: string } => typeof r === 'object' && r !== null && r.kind === 'env' && typeof r.name === 'string')
      .map((r) => r.name);
  }

  private degraded(op: string): undefined {
    this.cap.refuseIfError(op);
    return undefined;
  }
}

function isSnapshotMissing(body: Uint8Array): boolean {
  return Buffer.from(body).includes('"snapshot_not_found"');
}
