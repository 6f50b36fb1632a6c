import type { Type } from '@nestjs/common';
import type { AggregateView } from '../model/aggregate-view.js';
import type { MergeStrategyName } from '../model/merge-strategy.js';
import type { SnapshotPolicyOption } from '../model/snapshot-policy-option.js';

export interface AggregateOptions {
  /** Default COMMUTATIVE. */
  mergeStrategy?: MergeStrategyName;
  /**
   * The merge strategies an outside caller (HTTP's `Merge-Strategy`, or code sending with a
   * `principal`) may choose for this aggregate's commands, besides each command's own and STRICT
   * (which only refuses more). Default none. A command's `callerMergeStrategies` overrides it.
   */
  callerMergeStrategies?: MergeStrategyName[];
  /** Overrides the module-wide snapshot default for this aggregate. */
  snapshot?: SnapshotPolicyOption;
  /** Version of the state's shape; snapshots taken with another version are ignored. Default 1. */
  stateVersion?: number;
  /** What `GET /aggregates/:type/:id` (and `/events`) may show a reader; without it the aggregate is not readable over HTTP. */
  view?: AggregateView;
}

export interface AggregateMetadata {
  type: string;
  options: AggregateOptions;
}

export interface CommandHandlerOptions {
  /** Every event class the handler may return; each needs an `@Apply` on the aggregate. */
  emits: Type[];
  /**
   * State fields (dot paths) the command changes, for the COMMUTATIVE merge. Omitted: found by
   * running the command and diffing. `['*']`: cannot be told, the merge behaves as STRICT.
   */
  modifies?: string[];
  /** Overrides the aggregate's merge strategy for this command. */
  mergeStrategy?: MergeStrategyName;
  /** The merge strategies an outside caller may choose for this command besides its own (see AggregateOptions). */
  callerMergeStrategies?: MergeStrategyName[];
  /**
   * Routable over HTTP (`POST /commands/...`). Default false: commands meant for sagas, process
   * managers and the application's own code cannot be sent from outside, and look unknown (404).
   */
  http?: boolean;
}

export interface CommandHandlerMetadata {
  command: Type;
  methodName: string;
  options: CommandHandlerOptions;
}

export interface ApplierMetadata {
  event: Type;
  methodName: string;
}
