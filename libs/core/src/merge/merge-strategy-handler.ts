import type { CommandContext } from '../model/command-context.js';
import type { NormalizedHandlerResult } from '../model/handler-result.js';
import type { CommandHandlerDefinition } from '../model/aggregate-definition.js';
import type { StoredEvent, StreamId } from '../model/event-envelope.js';

/** What a merge strategy sees: a command decided by a caller who saw an older sequence. */
export interface MergeConflict {
  handler: CommandHandlerDefinition;
  command: object;
  stream: StreamId;
  /** The sequence the caller decided on. */
  expectedSequence: number;
  /** The aggregate's sequence now. */
  actualSequence: number;
  /** The state now (a copy: changing it changes nothing else). */
  actualState: unknown;
  context: CommandContext;
  /** The state the caller saw, rebuilt (from a snapshot at or below it when there is one). */
  expectedState(): Promise<unknown>;
  /** The events stored after the caller's sequence, up to the actual one. */
  eventsBetween(): Promise<StoredEvent[]>;
  /** Runs the command's handler on a state (the actual state when omitted); nothing is stored. */
  runHandler(state?: unknown): Promise<NormalizedHandlerResult>;
  /** A fresh copy of the state at the actual sequence with these event instances applied (for diffing). */
  applyToActual(events: readonly object[]): Promise<unknown>;
}

/** A strategy's answer. */
export type MergeVerdict =
  /** Go ahead on the actual state: with this result, or (none given) by running the handler on it. */
  | { verdict: 'proceed'; result?: NormalizedHandlerResult }
  /** SEQUENCE_MISMATCH (412) with this reason and details in the error body. */
  | { verdict: 'refuse'; reason: string; details?: Record<string, unknown> }
  /** Parked in the dead-letter table for review; the caller gets ABORTED with the dead-letter id. */
  | { verdict: 'park' }
  /** The aggregate's `@MergeHandler()` decides. */
  | { verdict: 'aggregate' };

/** Verdict constructors for merge strategies. */
export const Merge = {
  proceed: (result?: NormalizedHandlerResult): MergeVerdict => ({ verdict: 'proceed', result }),
  refuse: (reason: string, details?: Record<string, unknown>): MergeVerdict => ({ verdict: 'refuse', reason, details }),
  park: (): MergeVerdict => ({ verdict: 'park' }),
  toAggregate: (): MergeVerdict => ({ verdict: 'aggregate' }),
} as const;

/**
 * A merge strategy: decides what a command does when the aggregate moved past the sequence its
 * caller saw (an Expected-Sequence mismatch, or an append that lost a race). Register one with
 * `@CustomMergeStrategy('name')` on a provider; choose it by name per aggregate, handler or call.
 * A strategy may also throw an EventSourcingError (a business refusal of the handler it ran).
 */
export interface MergeStrategyHandler {
  merge(conflict: MergeConflict): MergeVerdict | Promise<MergeVerdict>;
}
