/**
 * What a store refused to do because of what it holds, in the domain's terms: an integration,
 * resource, definition, tag, snapshot or deployment that is not there, a resource name taken, a
 * stale resource version, a tag that exists. Both stores refuse alike; management/ words each for
 * people (management-errors.ts), so no store knows an HTTP status.
 */
export type Refusal =
  | { reason: 'missing-integration'; integration: string }
  | { reason: 'missing-resource'; integration: string; id: string }
  | { reason: 'missing-definition'; integration: string; file: string }
  | { reason: 'duplicate-resource'; integration: string; name: string; other: { id: string; kind: string } }
  | { reason: 'resource-version'; name: string; current: number; expected: number }
  | { reason: 'tag-exists'; integration: string; tag: string; snapshot: string }
  | { reason: 'missing-tag'; integration: string; tag: string }
  | { reason: 'missing-snapshot'; id: string }
  | { reason: 'missing-deployment'; id: string };

export class StoreRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
    this.name = 'StoreRefusal';
  }
}

export const refuse = (refusal: Refusal): StoreRefusal => new StoreRefusal(refusal);
