import { sliceOfKey } from '../model/key-partition.js';
import { assertParallelism } from './assert-parallelism.js';

/**
 * Default number of dispatcher groups (serial lanes). Fixed rather than derived from the CPU
 * count so an aggregate id lands in the same group on every machine; groups are logical
 * lanes, not workers, so more of them only lowers the chance that two ids share a lane.
 */
export const DEFAULT_PARALLELISM = 64;

/** The group of an aggregate id: its hash floor-mod `parallelism`, so always in [0, parallelism). */
export function groupKey(aggregateId: string, parallelism: number): number {
  assertParallelism(parallelism, 'groupKey');
  return sliceOfKey(aggregateId, parallelism);
}
