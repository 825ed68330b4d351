import { isUtf8 } from 'node:buffer';
import { badRequest } from '../http/api-error.ts';
import { describeJson } from '../http/http-io.ts';
import type { JsonObject } from '../http/request-fields.ts';
import type { Deployment } from './deployment-store.ts';
import type { IntegrationInfo, ResourceInfo } from './integration-store.ts';
import type { SecretInfo } from './cluster-secret-store.ts';
import type { Snapshot } from './snapshot-store.ts';

/** JSON shapes of the management API: timestamps as ISO 8601, content as text or base64. */

const iso = (ms: number): string => new Date(ms).toISOString();

export function integrationView(i: IntegrationInfo): JsonObject {
  return { ...i, createdAt: iso(i.createdAt), updatedAt: iso(i.updatedAt) };
}

export function resourceView(r: ResourceInfo): JsonObject {
  const { content: _content, ...info } = r as ResourceInfo & { content?: Buffer };
  return { ...info, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}

/** Text content as it is; bytes that are not UTF-8 as base64, so nothing is lost either way. */
export function contentView(content: Buffer): { content: string; encoding: 'utf8' | 'base64' } {
  return isUtf8(content) ? { content: content.toString('utf8'), encoding: 'utf8' } : { content: content.toString('base64'), encoding: 'base64' };
}

/** `content` (a string) with optional `encoding` (`utf8`, the default, or `base64`). */
export function contentOf(body: JsonObject, required: boolean): Buffer | undefined {
  const value = body.content;
  if (value === undefined || value === null) {
    if (required) throw badRequest('missing_field', 'the request body needs "content": the text of the resource (an empty string is allowed)');
    return undefined;
  }
  if (typeof value !== 'string') throw badRequest('invalid_field', `"content" must be a string, got ${describeJson(value)}`);
  const encoding = body.encoding ?? 'utf8';
  if (encoding === 'utf8') return Buffer.from(value, 'utf8');
  if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw badRequest('invalid_field', '"content" is not valid base64 (encoding: "base64")');
    return Buffer.from(value, 'base64');
  }
  throw badRequest('invalid_field', `"encoding" must be "utf8" or "base64", got ${JSON.stringify(encoding).slice(0, 40)}`);
}

export function snapshotView(s: Snapshot): JsonObject {
  const { id, ...rest } = s;
  return { snapshotId: id, ...rest, createdAt: iso(s.createdAt) };
}

export function secretView(s: SecretInfo, usedBy: Array<{ deployment: string; variable: string }>): JsonObject {
  return { name: s.name, createdAt: iso(s.createdAt), updatedAt: iso(s.updatedAt), updatedBy: s.updatedBy, usedBy };
}

export function deploymentView(d: Deployment): JsonObject {
  return { ...d, createdAt: iso(d.createdAt) };
}
