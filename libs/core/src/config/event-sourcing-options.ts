import type { MergeStrategyName } from '../model/merge-strategy.js';
import type { SnapshotPolicyOption } from '../model/snapshot-policy-option.js';

export interface EventSourcingModuleOptions {
  /** Commands in flight per named aggregate's scheduler (async I/O, not threads). Default 64. */
  schedulerParallelism?: number;
  /** Lanes of the command dispatcher (aggregate id hash mod this). Default 1024. */
  dispatcherParallelism?: number;
  /** Module-wide snapshot default; `@Aggregate({snapshot})` overrides it. Default 'none'. */
  snapshots?: SnapshotPolicyOption;
  /** Default merge strategy of aggregates that do not choose one. Default COMMUTATIVE. */
  mergeStrategy?: MergeStrategyName;
  /** One deadline for the whole graceful stop, then force stop. Default 10,000 ms. */
  shutdownTimeoutMs?: number;
  /**
   * At shutdown, how long the commands in flight and their SIMPLE / CASCADE waits may take to
   * settle (subscriptions still run meanwhile); waits left then end with SYNC_TIMEOUT. Default
   * 5,000 ms, and never more than `shutdownTimeoutMs`.
   */
  drainTimeoutMs?: number;
  /** How long SIMPLE / CASCADE sends wait before SYNC_TIMEOUT. Default 5,000 ms. */
  syncTimeoutMs?: number;
  /** Aggregate states kept in memory between commands (LRU). Default 10,000; 0 turns the cache off. */
  aggregateCacheSize?: number;
  /** Projectors, sagas and process managers. */
  processing?: ProcessingOptions;
  /** Live queries (`LiveQueries.watch`): limits and timings. */
  live?: LiveQueryOptions;
}

/** Limits and timings of live queries; every field optional. */
export interface LiveQueryOptions {
  /** Live queries one process serves at once; one more is refused with UNAVAILABLE. Default 1000. */
  maxWatchers?: number;
  /** A heartbeat message is sent this often on every live query, so proxies keep the connection open. Default 15,000 ms. */
  heartbeatMs?: number;
  /**
   * With several instances on one store: how often every live query re-runs when no wake-up came
   * (the backstop for a lost one). Changes made in this process, and those other instances announce,
   * re-run them at once. Default 5,000 ms.
   */
  pollMs?: number;
}

export interface ProcessingOptions {
  /** Run the subscriptions in this process. Default true (a CLI may turn them off). */
  enabled?: boolean;
  /** Run only these subscribers here (by name); default all. A maintenance command runs just the one it rebuilds. */
  subscribers?: string[];
  /** Lanes per subscriber kind, and tasks in flight per named aggregate. Default 64. */
  parallelism?: number;
  /** Polling backstop for appends made by other instances. Default 250 ms. */
  pollIntervalMs?: number;
  /** How often due process-manager timers are looked for. Default 200 ms. */
  timerPollIntervalMs?: number;
  /** Share the subscribers' work among the instances on one store instead of running all of it in each. */
  scaleOut?: ScaleOutOptions;
}

export interface ScaleOutOptions {
  /**
   * Each subscriber's events split by a hash of the aggregate id (the correlation id for process
   * managers) into this many partitions, each with its own checkpoint, spread over the instances.
   * Default 1 (a subscriber runs on one instance at a time). A partition with no checkpoint yet
   * starts where the subscriber's checkpoint without scale-out is; after changing the number,
   * rebuild the projections with the maintenance CLI, the instances stopped.
   */
  partitions?: number;
  /** How often an instance looks at who is alive and takes or hands over partitions. Default 500 ms. */
  rebalanceIntervalMs?: number;
}

export const EVENT_SOURCING_OPTIONS = Symbol('EVENT_SOURCING_OPTIONS');
