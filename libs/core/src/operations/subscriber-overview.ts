import type { SubscriberKind } from '../decorators/subscriber-types.js';
import type { Partition } from '../model/key-partition.js';

/** Where each subscriber is, as an operator's console shows it: one report, read in one go. */
export interface SubscribersOverview {
  /** When the report was read (ISO); the lags are measured against it. */
  at: string;
  /** The store's last position. */
  headPosition: number;
  /** Under scale-out, this instance's slot and the live ones (the checkpoints are shared among them); null without. */
  instances: { self: number; live: number[] } | null;
  /** True when scale-out shares the checkpoints among the live instances. */
  scaleOut: boolean;
  subscribers: SubscriberOverview[];
}

export interface SubscriberOverview {
  name: string;
  kind: SubscriberKind;
  /** One per partition (one alone without scale-out). */
  checkpoints: CheckpointOverview[];
}

export interface CheckpointOverview {
  /** The checkpoint's name: the subscriber's, or `name#index/count` for one partition of it. */
  checkpoint: string;
  partition: Partition;
  /** The position of the last event it finished (held events aside). */
  position: number;
  /** Head position minus checkpoint: an upper bound, as it counts events the subscriber ignores. */
  positionsBehind: number;
  /** The oldest event it handles and has not handled yet (held, or after its checkpoint); absent when none is. */
  oldestUnhandled?: { position: number; storedAt: string; lagMs: number };
  owner: CheckpointOwner;
  held: HeldEventOverview[];
}

export interface CheckpointOwner {
  /**
   * The live instance it is assigned to under scale-out (unit i to live instance i mod n); null
   * without scale-out (every instance that runs the subscriber competes for each batch) or when
   * this process is not set to run the subscriber.
   */
  instance: number | null;
  /** It runs in this process now: only then are the held events' attempts and errors known here. */
  runsHere: boolean;
}

/** One held event: from the store, and from the running subscription when it runs in this process. */
export interface HeldEventOverview {
  position: number;
  aggregateType: string;
  aggregateId: string;
  /** Known where the checkpoint runs: failed attempts of this one (0 while it waits behind another). */
  attempts?: number;
  lastError?: string;
  /** ISO time of its next attempt; absent while it waits behind an older held event of its key. */
  nextAttemptAt?: string;
  /** The older held event of its key it waits behind. */
  behind?: number;
}
