import { isUtf8 } from 'node:buffer';
import type { Static } from '@sinclair/typebox';
import type { Deployment as DeploymentJson } from '../../../shared/platform-api/deployments.ts';
import type { Resource } from '../../../shared/platform-api/integration-resources.ts';
import type { Tag } from '../../../shared/platform-api/version-tags.ts';
import type { Integration } from '../../../shared/platform-api/integrations.ts';
import type { Secret } from '../../../shared/platform-api/secrets.ts';
import { badRequest } from '../http/api-error.ts';
import type { SecretInfo } from '../store/cluster-secret-store.ts';
import type { Deployment } from '../store/deployment-store.ts';
import type { IntegrationInfo, ResourceInfo } from '../store/integration-store.ts';
import type { Snapshot } from '../store/snapshot-store.ts';

/**
 * JSON shapes of the management API, typed by their response schemas (shared/platform-api/):
 * timestamps as ISO 8601, content as text or base64.
 */

const iso = (ms: number): string => new Date(ms).toISOString();

export function integrationView(i: IntegrationInfo): Static<typeof Integration> {
  return { ...i, createdAt: iso(i.createdAt), updatedAt: iso(i.updatedAt) };
}

export function resourceView(r: ResourceInfo): Static<typeof Resource> {
  const { content: _content, ...info } = r as ResourceInfo & { content?: Buffer };
  return { ...info, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}

/** Text content as it is; bytes that are not UTF-8 as base64, so nothing is lost either way. */
export function contentView(content: Buffer): { content: string; encoding: 'utf8' | 'base64' } {
  return isUtf8(content) ? { content: content.toString('utf8'), encoding: 'utf8' } : { content: content.toString('base64'), encoding: 'base64' };
}

/** Checked `content` with optional `encoding` (`utf8`, the default, or `base64`) as bytes. */
export function contentOf({ content, encoding = 'utf8' }: { content: string; encoding?: 'utf8' | 'base64' }): Buffer {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  // The base64 alphabet depends on `encoding`, which a field's own schema cannot see.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(content) || content.length % 4 !== 0) throw badRequest('invalid_field', '"content" is not valid base64 (encoding: "base64")');
  return Buffer.from(content, 'base64');
}

export function snapshotView(s: Snapshot): Static<typeof Tag> {
  const { id, ...rest } = s;
  return { snapshotId: id, ...rest, createdAt: iso(s.createdAt) };
}

export function secretView(s: SecretInfo, usedBy: Array<{ deployment: string; variable: string }>): Static<typeof Secret> {
  return { name: s.name, createdAt: iso(s.createdAt), updatedAt: iso(s.updatedAt), updatedBy: s.updatedBy, usedBy };
}

export function deploymentView(d: Deployment): Static<typeof DeploymentJson> {
  return { ...d, createdAt: iso(d.createdAt) };
}
