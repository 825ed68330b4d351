import type { IntegrationFiles } from './integration-store.ts';
import type { ResourceKind } from './resource-store.ts';

/** A variable a definition declares under `env:`, as the deploy dialog shows it (spec 2 §9). */
export interface DeclaredVariable {
  name: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  /** The definition file that declares it. */
  declaredIn: string;
  /** Frozen env resources that give it a non-empty value, in declared order. */
  satisfiedBy: string[];
}

/** A version tag and its frozen copy (spec 2 §3.2). */
export interface Snapshot {
  /** What a deployed runtime carries in FLOW_SNAPSHOT_ID. */
  id: string;
  integration: string;
  tag: string;
  description?: string;
  createdAt: number;
  createdBy: string;
  definitions: Array<{ file: string; bytes: number }>;
  /** In declared order: env resources are folded in it. */
  resources: Array<{ kind: ResourceKind; name: string; bytes: number }>;
  variables: DeclaredVariable[];
}

/**
 * Tags freeze an integration's definitions and every resource in one transaction; later edits of
 * the working copy never reach a tag, and a tag is never changed. Refusals (StoreRefusal): a
 * missing integration, tag or snapshot, a tag that exists.
 */
export interface SnapshotStore {
  /**
   * Freezes the working copy as it is inside the transaction. `variablesOf` reads the files about
   * to be frozen (and may refuse them by throwing): what the tag records as its variables.
   */
  createTag(integration: string, tag: string, description: string | undefined, actor: string, variablesOf: (files: IntegrationFiles) => DeclaredVariable[]): Promise<Snapshot>;
  listTags(integration: string): Promise<Snapshot[]>;
  getTag(integration: string, tag: string): Promise<Snapshot>;
  get(id: string): Promise<Snapshot>;
  /** The frozen definition files, for a runtime to load. */
  definitions(id: string): Promise<Array<{ file: string; content: Buffer }>>;
  /** A frozen resource's bytes; undefined when the snapshot has none of that kind and name. */
  resourceContent(id: string, kind: ResourceKind, name: string): Promise<Buffer | undefined>;
}

export interface SnapshotRow {
  id: string;
  integration: string;
  tag: string;
  description: string | null;
  variables: string;
  created_at: number;
  created_by: string;
}

/** A snapshot from its row and the sizes of its frozen files (definitions by file, resources in declared order). */
export function snapshotOf(row: SnapshotRow, definitions: Snapshot['definitions'], resources: Snapshot['resources']): Snapshot {
  return {
    id: row.id,
    integration: row.integration,
    tag: row.tag,
    ...(row.description !== null ? { description: row.description } : {}),
    createdAt: row.created_at,
    createdBy: row.created_by,
    definitions,
    resources,
    variables: JSON.parse(row.variables) as DeclaredVariable[],
  };
}
