import type { MergeStrategyName } from './merge-strategy.js';
import type { StoredEvent } from './event-envelope.js';
import type { Principal } from './principal.js';

/** When `send` returns: how much of a command's consequences the caller waits for. */
export enum SyncMode {
  /** When the events are stored (default). */
  ASYNC = 'async',
  /** Also when every projector handling them has checkpointed past them. */
  SIMPLE = 'simple',
  /** Also when, recursively, sagas and process managers reacting to them and their commands' projectors are done. */
  CASCADE = 'cascade',
}

export function parseSyncMode(value: string): SyncMode | undefined {
  const normalized = value.trim().toLowerCase();
  return (Object.values(SyncMode) as string[]).includes(normalized) ? (normalized as SyncMode) : undefined;
}

export interface SendOptions {
  /** The target aggregate, when the command class has no `@AggregateId()` property. */
  aggregateId?: string;
  /** Repeating a command id on the same aggregate returns the first result and appends nothing. */
  commandId?: string;
  /** Flows unchanged through sagas and process managers. Default: the command id. */
  correlationId?: string;
  /** The message that caused this command. Default: none. */
  causationId?: string;
  /** The sequence the caller last saw (0 = new); a mismatch goes through the merge strategy. */
  expectedSequence?: number;
  syncMode?: SyncMode;
  mergeStrategy?: MergeStrategyName;
  /** Overrides the module's sync timeout for this call. */
  syncTimeoutMs?: number;
  /** Extra metadata stamped on every event of the command. */
  metadata?: Record<string, unknown>;
  /** Who sends it: recorded on its events (metadata `principal`) and given to the handler's context. */
  principal?: Principal;
  /**
   * Ask the module's command authorizer first (an outside caller). Default: true when a principal is
   * given. The HTTP controller always asks; sagas and process managers never do.
   */
  authorize?: boolean;
}

export interface CommandResult {
  aggregateType: string;
  aggregateId: string;
  /** The aggregate's sequence after the command. */
  sequence: number;
  events: StoredEvent[];
  commandId: string;
  /** True when the command id had been handled before and this is the first result again. */
  duplicate: boolean;
}
