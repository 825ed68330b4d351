export type ResourceKind = 'env' | 'template';
export const resourceKinds: readonly ResourceKind[] = ['env', 'template'];

/**
 * Integration resources served to runtimes by GET /v1/resources/content (§4.1), by kind and
 * name. The management side and a seed directory write them.
 */
export interface ResourceStore {
  read(kind: ResourceKind, name: string): Promise<Buffer | undefined>;
  /** Creates or replaces a resource, recording who wrote it. */
  write(kind: ResourceKind, name: string, content: Buffer, updatedBy: string): Promise<void>;
}
