import { Logger } from '@nestjs/common';
import { Merge, type MergeConflict, type MergeStrategyHandler, type MergeVerdict } from './merge-strategy-handler.js';
import { changedPaths, overlappingPaths } from './state-diff.js';

/** STRICT: any mismatch is the caller's to resolve. */
export class StrictMerge implements MergeStrategyHandler {
  merge(): MergeVerdict {
    return Merge.refuse('merge strategy STRICT refuses any sequence mismatch');
  }
}

/** MANUAL: a person decides, from the dead-letter table. */
export class ManualMerge implements MergeStrategyHandler {
  merge(): MergeVerdict {
    return Merge.park();
  }
}

/** AGGREGATE_HANDLES: the aggregate's `@MergeHandler()` decides. */
export class AggregateHandlesMerge implements MergeStrategyHandler {
  merge(): MergeVerdict {
    return Merge.toAggregate();
  }
}

/**
 * COMMUTATIVE: the command goes ahead on the actual state when the fields it modifies (declared
 * with `modifies`, or found by diffing) did not change since the caller's sequence. When fields
 * cannot be told apart it behaves as STRICT and the log says so (graceful degradation).
 */
export class CommutativeMerge implements MergeStrategyHandler {
  private readonly logger = new Logger('CommutativeMerge');

  async merge(conflict: MergeConflict): Promise<MergeVerdict> {
    const { handler } = conflict;
    if (handler.modifies?.includes('*')) return this.degrade(conflict, `${handler.commandType} declares modifies ['*']`);
    let atExpected: unknown;
    try {
      atExpected = await conflict.expectedState();
    } catch (error) {
      return this.degrade(conflict, (error as Error).message);
    }
    const changed = changedPaths(atExpected, conflict.actualState);
    if (changed.includes('*')) return this.degrade(conflict, 'the aggregate state cannot be compared field by field');
    // Declared fields are checked before the handler runs: an overlap is the caller's conflict
    // (412 with both sequences), not a business refusal computed on state the caller never saw.
    if (handler.modifies) {
      const refused = this.overlap(conflict, changed, handler.modifies);
      if (refused) return refused;
    }
    const decided = await conflict.runHandler();
    if (!handler.modifies) {
      let after: unknown;
      try {
        after = await conflict.applyToActual(decided.events);
      } catch (error) {
        return this.degrade(conflict, (error as Error).message);
      }
      const refused = this.overlap(conflict, changed, changedPaths(conflict.actualState, after));
      if (refused) return refused;
    }
    return Merge.proceed(decided);
  }

  private overlap(conflict: MergeConflict, changed: string[], modified: string[]): MergeVerdict | undefined {
    if (modified.includes('*')) return this.degrade(conflict, 'the fields the command modifies cannot be told');
    const overlap = overlappingPaths(changed, modified);
    if (overlap.length === 0) return undefined;
    return Merge.refuse(`${conflict.handler.commandType} modifies ${overlap.join(', ')}, which changed since sequence ${conflict.expectedSequence}`, {
      overlappingFields: overlap,
      changedFields: changed,
    });
  }

  private degrade(conflict: MergeConflict, why: string): MergeVerdict {
    const { handler, stream } = conflict;
    this.logger.warn(`${handler.commandType} on ${stream.aggregateType}/${stream.aggregateId}: ${why}; merge behaves as STRICT`);
    return Merge.refuse(`${why}; merge behaves as STRICT`, { degradedToStrict: true });
  }
}
