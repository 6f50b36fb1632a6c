/** Who else runs subscribers on this store: the slots of the live instances, and this one's. */
export interface Membership {
  self: number;
  /** Ascending; includes `self`. */
  live: number[];
}

/**
 * Leases on units of subscriber work (one partition of one subscriber) shared by the instances of
 * one store: a unit is run by the instance that holds its lease. A lease ends when its holder
 * releases it or dies (its connection to the store closes), never by a clock.
 */
export interface PartitionLeases {
  /**
   * Joins the instances of the store (again after a loss; a no-op while joined). `onLost` (kept by
   * identity, so pass the same function each time) is called when every lease was lost at once.
   */
  join(onLost: () => void): Promise<void>;
  members(): Promise<Membership>;
  /** True when this instance now holds the lease (also when it held it already). */
  tryAcquire(unit: string): Promise<boolean>;
  release(unit: string): Promise<void>;
  /** Leaves: every lease is released. */
  leave(): Promise<void>;
}

/** The store's leases; PostgreSQL advisory locks, or in-process ones for a single-process store. */
export const PARTITION_LEASES = Symbol('PARTITION_LEASES');

/** One process owns the store (SQLite): it is the only member and every lease is granted. */
export class InProcessPartitionLeases implements PartitionLeases {
  async join(): Promise<void> {}
  async members(): Promise<Membership> {
    return { self: 0, live: [0] };
  }
  async tryAcquire(): Promise<boolean> {
    return true;
  }
  async release(): Promise<void> {}
  async leave(): Promise<void> {}
}
