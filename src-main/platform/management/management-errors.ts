import { badRequest, conflict, notFound, type ApiError } from '../http/api-error.ts';
import type { IntegrationFiles } from '../store/integration-store.ts';
import { resourceKinds, type ResourceKind } from '../store/resource-store.ts';
import { StoreRefusal, type Refusal } from '../store/store-refusal.ts';
import { checkResourceName } from './names.ts';

/**
 * The management answers, one wording per failure whichever store refused (SQLite or
 * PostgreSQL), so a client cannot tell which store it talks to.
 */

export const missingIntegration = (id: string): ApiError =>
  notFound('integration_not_found', `no integration "${id}"; create it with PUT /integrations/${id}, by adding a resource or a definition, or by uploading a bundle`);

export const nothingToTag = (integration: string): ApiError =>
  badRequest('no_definitions', `integration "${integration}" has no definition file to tag; add one (PUT /integrations/${integration}/definitions/{file}) first`);

/** A store's refusal as the answer a person reads. */
export function answerFor(refusal: Refusal): ApiError {
  switch (refusal.reason) {
    case 'missing-integration':
      return missingIntegration(refusal.integration);
    case 'missing-resource':
      return notFound(
        'resource_not_found',
        `integration "${refusal.integration}" has no resource with id "${refusal.id}"; list them with GET /integrations/${refusal.integration}/resources`,
      );
    case 'missing-definition':
      return notFound('definition_not_found', `integration "${refusal.integration}" has no definition file "${refusal.file}"`);
    case 'duplicate-resource':
      return badRequest(
        'resource_name_duplicate',
        `integration "${refusal.integration}" already has a resource named "${refusal.name}" (${refusal.other.kind}, id ${refusal.other.id}); names are unique per integration: update that one or choose another name`,
      );
    case 'resource-version':
      return conflict('version_conflict', `resource "${refusal.name}" is at version ${refusal.current}, not ${refusal.expected}; read it again and reapply the change`);
    case 'tag-exists':
      return conflict('tag_exists', `integration "${refusal.integration}" already has a tag "${refusal.tag}" (snapshot ${refusal.snapshot}); tags never change: choose a new name`);
    case 'missing-tag':
      return notFound('tag_not_found', `integration "${refusal.integration}" has no tag "${refusal.tag}"; create it with POST /integrations/${refusal.integration}/tags`);
    case 'missing-snapshot':
      return notFound('snapshot_not_found', `no snapshot "${refusal.id}"; a snapshot id comes from a tag (FLOW_SNAPSHOT_ID of a deployment)`);
    case 'missing-deployment':
      return notFound('deployment_not_found', `no deployment "${refusal.id}"`);
  }
}

/** Runs a store call, answering its refusal as a person reads it; other failures pass unchanged. */
export async function answered<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw err instanceof StoreRefusal ? answerFor(err.refusal) : err;
  }
}

export function checkKind(kind: string): void {
  if (!resourceKinds.includes(kind as ResourceKind)) {
    throw badRequest('invalid_field', `"kind" must be one of ${resourceKinds.join(', ')}, got ${JSON.stringify(kind).slice(0, 60)}`);
  }
}

/** Checks a bundle's resources before anything is written: known kinds, valid names, each name once. */
export function checkBundleResources(files: IntegrationFiles): void {
  const seen = new Set<string>();
  for (const r of files.resources) {
    checkKind(r.kind);
    checkResourceName(r.name);
    if (seen.has(r.name)) throw badRequest('resource_name_duplicate', `the bundle holds the resource "${r.name}" twice (as env and as template); a name is unique in an integration`);
    seen.add(r.name);
  }
}
