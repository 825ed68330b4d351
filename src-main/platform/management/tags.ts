import type { IntegrationFiles } from '../store/integration-store.ts';
import type { ResourceKind } from '../store/resource-store.ts';
import type { Snapshot, SnapshotStore } from '../store/snapshot-store.ts';
import { declaredVariables } from './declared-variables.ts';
import { answered, nothingToTag } from './management-errors.ts';

/**
 * Version tags and the snapshots they freeze (spec 2 §3.2) over either store. A tag needs a
 * definition to freeze, and records the variables its definitions declare (refusing definitions
 * that are not YAML), read from the very files it freezes.
 */
export class Tags {
  constructor(private readonly store: SnapshotStore) {}

  createTag(integration: string, tag: string, description: string | undefined, actor: string): Promise<Snapshot> {
    const variablesOf = (files: IntegrationFiles) => {
      if (files.definitions.length === 0) throw nothingToTag(integration);
      return declaredVariables(files);
    };
    return answered(this.store.createTag(integration, tag, description, actor, variablesOf));
  }

  listTags(integration: string): Promise<Snapshot[]> {
    return answered(this.store.listTags(integration));
  }

  getTag(integration: string, tag: string): Promise<Snapshot> {
    return answered(this.store.getTag(integration, tag));
  }

  get(id: string): Promise<Snapshot> {
    return answered(this.store.get(id));
  }

  /** The frozen definition files, for a runtime to load. */
  definitions(id: string): Promise<Array<{ file: string; content: Buffer }>> {
    return answered(this.store.definitions(id));
  }

  /** A frozen resource's bytes; undefined when the snapshot has none of that kind and name. */
  resourceContent(id: string, kind: ResourceKind, name: string): Promise<Buffer | undefined> {
    return answered(this.store.resourceContent(id, kind, name));
  }
}
