import { badRequest, conflict, notFound, type ApiError } from '../http/api-error.ts';
import { resourceKinds, type ResourceKind } from '../store/resource-store.ts';
import { checkResourceName } from './names.ts';
import type { IntegrationFiles } from './integration-store.ts';

/**
 * The management answers both stores give (SQLite and PostgreSQL): one wording per failure, so a
 * client cannot tell which store it talks to.
 */

export const missingIntegration = (id: string): ApiError =>
  notFound('integration_not_found', `no integration "${id}"; create it with PUT /integrations/${id}, by adding a resource or a definition, or by uploading a bundle`);

export const missingResource = (integration: string, id: string): ApiError =>
  notFound('resource_not_found', `integration "${integration}" has no resource with id "${id}"; list them with GET /integrations/${integration}/resources`);

export const duplicateResource = (integration: string, name: string, other: { id: string; kind: string }): ApiError =>
  badRequest(
    'resource_name_duplicate',
    `integration "${integration}" already has a resource named "${name}" (${other.kind}, id ${other.id}); names are unique per integration: update that one or choose another name`,
  );

export const resourceVersionConflict = (name: string, current: number, expected: number): ApiError =>
  conflict('version_conflict', `resource "${name}" is at version ${current}, not ${expected}; read it again and reapply the change`);

export const missingDefinition = (integration: string, file: string): ApiError =>
  notFound('definition_not_found', `integration "${integration}" has no definition file "${file}"`);

export const tagExists = (integration: string, tag: string, snapshot: string): ApiError =>
  conflict('tag_exists', `integration "${integration}" already has a tag "${tag}" (snapshot ${snapshot}); tags never change: choose a new name`);

export const nothingToTag = (integration: string): ApiError =>
  badRequest('no_definitions', `integration "${integration}" has no definition file to tag; add one (PUT /integrations/${integration}/definitions/{file}) first`);

export const missingTag = (integration: string, tag: string): ApiError =>
  notFound('tag_not_found', `integration "${integration}" has no tag "${tag}"; create it with POST /integrations/${integration}/tags`);

export const missingSnapshot = (id: string): ApiError =>
  notFound('snapshot_not_found', `no snapshot "${id}"; a snapshot id comes from a tag (FLOW_SNAPSHOT_ID of a deployment)`);

export const missingDeployment = (id: string): ApiError => notFound('deployment_not_found', `no deployment "${id}"`);

export function checkKind(kind: string): void {
  if (!resourceKinds.includes(kind as ResourceKind)) {
    throw badRequest('invalid_field', `"kind" must be one of ${resourceKinds.join(', ')}, got ${JSON.stringify(kind).slice(0, 60)}`);
  }
}

/** Checks a bundle's resources before anything is written: known kinds, valid names, each name once. */
export function checkBundleResources(files: IntegrationFiles): Set<string> {
  const seen = new Set<string>();
  for (const r of files.resources) {
    checkKind(r.kind);
    checkResourceName(r.name);
    if (seen.has(r.name)) throw badRequest('resource_name_duplicate', `the bundle holds the resource "${r.name}" twice (as env and as template); a name is unique in an integration`);
    seen.add(r.name);
  }
  return seen;
}
