import type { ResourceKind } from './resource-store.ts';

export interface Authored {
  updatedAt: number;
  updatedBy: string;
}

export interface IntegrationInfo extends Authored {
  id: string;
  createdAt: number;
  createdBy: string;
  definitions: number;
  resources: number;
  tags: number;
}

export interface ResourceInfo extends Authored {
  id: string;
  integration: string;
  kind: ResourceKind;
  name: string;
  /** Size of the content in bytes. */
  bytes: number;
  /** Starts at 1; every update adds one. */
  version: number;
  createdAt: number;
  createdBy: string;
}

export interface ResourceRecord extends ResourceInfo {
  content: Buffer;
}

export interface DefinitionInfo extends Authored {
  file: string;
  bytes: number;
}

export interface DefinitionRecord extends DefinitionInfo {
  content: Buffer;
}

/** What a bundle or a tag holds: definitions by file, resources in declared order. */
export interface IntegrationFiles {
  definitions: Array<{ file: string; content: Buffer }>;
  resources: Array<{ kind: ResourceKind; name: string; content: Buffer }>;
}

export interface ResourcePatch {
  kind?: ResourceKind;
  name?: string;
  content?: Buffer;
}

/**
 * The working copy of each integration (spec 2 §2.11, §4.2): its flow definitions (root-level
 * YAML files) and its resources in declared order. Every write records who made it and when,
 * creates the integration when it is new, and is one transaction. What the store holds decides a
 * refusal (StoreRefusal): a missing integration, resource or definition, a resource name taken,
 * a stale resource version. Names and kinds are checked by the caller before.
 */
export interface IntegrationStore {
  list(): Promise<IntegrationInfo[]>;
  get(id: string): Promise<IntegrationInfo | undefined>;
  /** Creates the integration when missing; true when it was created. */
  ensure(id: string, actor: string): Promise<boolean>;
  listResources(integration: string): Promise<ResourceInfo[]>;
  getResource(integration: string, id: string): Promise<ResourceRecord>;
  createResource(integration: string, input: { kind: ResourceKind; name: string; content: Buffer }, actor: string): Promise<ResourceRecord>;
  /** Applies the patch; `expectedVersion` 0 writes unconditionally, a positive one must match. */
  updateResource(integration: string, id: string, patch: ResourcePatch, expectedVersion: number, actor: string): Promise<ResourceRecord>;
  deleteResource(integration: string, id: string, actor: string): Promise<ResourceInfo>;
  listDefinitions(integration: string): Promise<DefinitionInfo[]>;
  getDefinition(integration: string, file: string): Promise<DefinitionRecord>;
  /** Creates or replaces a definition file; true when it was created. */
  putDefinition(integration: string, file: string, content: Buffer, actor: string): Promise<boolean>;
  deleteDefinition(integration: string, file: string, actor: string): Promise<void>;
  /** Definitions and resources with their content, resources in declared order. */
  files(integration: string): Promise<IntegrationFiles>;
  /**
   * Replaces the working copy with `files` (a bundle upload). A resource whose name survives
   * keeps its id; its version moves on when its kind or content changed.
   */
  replace(integration: string, files: IntegrationFiles, actor: string): Promise<void>;
}

/* ---------- rows, as both backends store them ---------- */

export interface ResourceRow {
  id: string;
  integration: string;
  kind: ResourceKind;
  name: string;
  bytes: number;
  version: number;
  created_at: number;
  created_by: string;
  updated_at: number;
  updated_by: string;
  content?: Buffer;
}

export const RESOURCE_COLUMNS = 'id, integration, kind, name, length(content) AS bytes, version, created_at, created_by, updated_at, updated_by';

export interface IntegrationRow {
  id: string;
  created_at: number;
  created_by: string;
  updated_at: number;
  updated_by: string;
  definitions: number;
  resources: number;
  tags: number;
}

export const INTEGRATION_SELECT = `i.id, i.created_at, i.created_by, i.updated_at, i.updated_by,
  (SELECT COUNT(*) FROM integration_definitions d WHERE d.integration = i.id) AS definitions,
  (SELECT COUNT(*) FROM integration_resources r WHERE r.integration = i.id) AS resources,
  (SELECT COUNT(*) FROM snapshots s WHERE s.integration = i.id) AS tags`;

export function integrationInfo(r: IntegrationRow): IntegrationInfo {
  return {
    id: r.id,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
    definitions: r.definitions,
    resources: r.resources,
    tags: r.tags,
  };
}

export function resourceInfo(r: ResourceRow): ResourceInfo {
  return {
    id: r.id,
    integration: r.integration,
    kind: r.kind,
    name: r.name,
    bytes: r.bytes,
    version: r.version,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
  };
}
