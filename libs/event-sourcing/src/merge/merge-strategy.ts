import type { AggregateDefinition } from '../discovery/aggregate-definition.js';
import { InvalidArgumentError } from '../errors/index.js';

/** How a command is treated when the aggregate moved past the sequence the caller saw (DESIGN.md section 5). */
export enum MergeStrategy {
  COMMUTATIVE = 'commutative',
  STRICT = 'strict',
  AGGREGATE_HANDLES = 'aggregate_handles',
  MANUAL = 'manual',
}

export function parseMergeStrategy(value: string): MergeStrategy | undefined {
  const normalized = value.trim().toLowerCase();
  return (Object.values(MergeStrategy) as string[]).includes(normalized) ? (normalized as MergeStrategy) : undefined;
}

/**
 * A per-call AGGREGATE_HANDLES needs a `@MergeHandler()` on the target aggregate (declared
 * strategies are checked at boot). Checked on every send, so the answer does not depend on
 * whether this particular call happens to meet a mismatch.
 */
export function assertMergeStrategyUsable(aggregate: AggregateDefinition, strategy: MergeStrategy | undefined): void {
  if (strategy === MergeStrategy.AGGREGATE_HANDLES && !aggregate.mergeHandler) {
    throw new InvalidArgumentError(
      `merge strategy aggregate_handles needs a @MergeHandler() method on ${aggregate.classRef.name} (aggregate '${aggregate.type}'), which has none`,
    );
  }
}
