import { Injectable } from '@nestjs/common';
import { AggregateHandlesMerge, CommutativeMerge, ManualMerge, StrictMerge } from './builtin-merge-interceptors.js';
import type { MergeInterceptor } from './merge-interceptor.js';
import { MergeStrategy, normalizeMergeStrategy, type MergeStrategyName } from '../model/merge-strategy.js';

/** The merge strategies by name: the four built-ins, then the application's (registered at boot). */
@Injectable()
export class MergeInterceptors {
  private readonly byName = new Map<string, MergeInterceptor>([
    [MergeStrategy.COMMUTATIVE, new CommutativeMerge()],
    [MergeStrategy.STRICT, new StrictMerge()],
    [MergeStrategy.AGGREGATE_HANDLES, new AggregateHandlesMerge()],
    [MergeStrategy.MANUAL, new ManualMerge()],
  ]);

  /** False when the name is taken (a built-in cannot be replaced). */
  register(name: string, interceptor: MergeInterceptor): boolean {
    const key = normalizeMergeStrategy(name);
    if (this.byName.has(key)) return false;
    this.byName.set(key, interceptor);
    return true;
  }

  get(name: MergeStrategyName): MergeInterceptor | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
