import type { AggregateDefinition } from '../discovery/aggregate-definition.js';
import { InvalidArgumentError } from '../errors/index.js';

/** The built-in ways a command is treated when the aggregate moved past the sequence the caller saw. */
export enum MergeStrategy {
  COMMUTATIVE = 'commutative',
  STRICT = 'strict',
  AGGREGATE_HANDLES = 'aggregate_handles',
  MANUAL = 'manual',
}

/** A built-in strategy or the name of one registered with `@MergeStrategyInterceptor(name)`. */
export type MergeStrategyName = MergeStrategy | (string & {});

/** Strategy names are case-insensitive: this is the form they are registered and looked up under. */
export function normalizeMergeStrategy(value: string): MergeStrategyName {
  return value.trim().toLowerCase();
}

/** The built-in strategy named `value` (any case), if it is one. */
export function parseMergeStrategy(value: string): MergeStrategy | undefined {
  const normalized = normalizeMergeStrategy(value);
  return (Object.values(MergeStrategy) as string[]).includes(normalized) ? (normalized as MergeStrategy) : undefined;
}

/**
 * A per-call strategy must be registered, and AGGREGATE_HANDLES needs a `@MergeHandler()` on the
 * target aggregate (declared strategies are checked at boot). Checked on every send, so the answer
 * does not depend on whether this particular call happens to meet a mismatch.
 */
export function assertMergeStrategyUsable(aggregate: AggregateDefinition, strategy: MergeStrategyName | undefined, known: readonly string[]): void {
  if (strategy === undefined) return;
  if (!known.includes(strategy)) {
    throw new InvalidArgumentError(`merge strategy must be one of ${known.join(', ')}, got '${strategy}'`);
  }
  if (strategy === MergeStrategy.AGGREGATE_HANDLES && !aggregate.mergeHandler) {
    throw new InvalidArgumentError(
      `merge strategy aggregate_handles needs a @MergeHandler() method on ${aggregate.classRef.name} (aggregate '${aggregate.type}'), which has none`,
    );
  }
}
