import { sliceOfKey } from '../model/key-partition.js';
import { assertParallelism } from './assert-parallelism.js';

/**
 * Default parallelism of the schedulers and default number of the subscribers' event lanes (the
 * command dispatcher's lanes default to DEFAULT_COMMAND_LANES). Fixed rather than derived from the
 * CPU count so an aggregate id lands in the same lane on every machine; lanes are logical, not
 * workers, so more of them only lowers the chance that two ids share one.
 */
export const DEFAULT_PARALLELISM = 64;

/**
 * Default lanes of the command dispatcher. Commands on different aggregates that share a lane wait
 * for each other, and an idle lane costs nothing; the schedulers, not the lanes, bound the commands
 * in flight. With 64 lanes, 64 callers on random aggregates kept about 40 lanes busy, and group
 * commit's batches held about 25 appends; with 1,024 they held 57.
 */
export const DEFAULT_COMMAND_LANES = 1024;

/** The group of an aggregate id: its hash floor-mod `parallelism`, so always in [0, parallelism). */
export function groupKey(aggregateId: string, parallelism: number): number {
  assertParallelism(parallelism, 'groupKey');
  return sliceOfKey(aggregateId, parallelism);
}
