import { Injectable } from '@nestjs/common';
import { AggregateHandlesMerge, CommutativeMerge, ManualMerge, StrictMerge } from './builtin-merge-strategies.js';
import type { MergeStrategyHandler } from './merge-strategy-handler.js';
import { MergeStrategy, normalizeMergeStrategy, type MergeStrategyName } from '../model/merge-strategy.js';

/** The merge strategies by name: the four built-ins, then the application's (registered at boot). */
@Injectable()
export class MergeStrategies {
  private readonly byName = new Map<string, MergeStrategyHandler>([
    [MergeStrategy.COMMUTATIVE, new CommutativeMerge()],
    [MergeStrategy.STRICT, new StrictMerge()],
    [MergeStrategy.AGGREGATE_HANDLES, new AggregateHandlesMerge()],
    [MergeStrategy.MANUAL, new ManualMerge()],
  ]);

  /** False when the name is taken (a built-in cannot be replaced). */
  register(name: string, interceptor: MergeStrategyHandler): boolean {
    const key = normalizeMergeStrategy(name);
    if (this.byName.has(key)) return false;
    this.byName.set(key, interceptor);
    return true;
  }

  get(name: MergeStrategyName): MergeStrategyHandler | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
