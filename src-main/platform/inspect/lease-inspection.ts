import type { InspectionStore, StoredClaim } from '../store/inspection-store.ts';

export type { StoredClaim } from '../store/inspection-store.ts';

/** Read-only view of leases and leaderships for the studio. */
export class LeaseInspection {
  constructor(private readonly reads: InspectionStore) {}

  /** Every stored claim; those with `expiresAt` in the past are free for the next caller. */
  async claims(): Promise<StoredClaim[]> {
    return this.reads.leaseClaims();
  }
}
